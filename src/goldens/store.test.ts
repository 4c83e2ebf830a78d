import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GoldenFormatError } from './errors.ts';
import { parseGolden, readGolden, readGoldenSync, removeStaleTempFiles, serializeGolden, writeGolden } from './store.ts';
import { sampleGolden } from './testing/golden.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'gw-store-'));
  dirs.push(d);
  return d;
};

describe('golden files', () => {
  it('round-trips through write and read, as stable 2-space JSON', async () => {
    const file = join(dir(), 'nested', 'a.json');
    await writeGolden(file, sampleGolden());
    expect(await readGolden(file)).toEqual(sampleGolden());
    expect(readFileSync(file, 'utf8')).toBe(serializeGolden(sampleGolden()));
    expect(await readGolden(join(dir(), 'missing.json'))).toBeNull();
  });

  it('a hand-edited file that no longer parses names the file, line and column', () => {
    const text = serializeGolden(sampleGolden()).replace('"status": 200,', '"status": 200,,');
    expect(() => parseGolden(text, 'goldens/a.json')).toThrowError(/^goldens\/a\.json: \$: not valid JSON \(line \d+, column \d+\)/);
  });

  it('a hand-edited field of the wrong type names the JSON path and what was expected', () => {
    const golden = sampleGolden() as unknown as { interactions: Array<{ response: { status: unknown } }> };
    golden.interactions[0].response.status = '200';
    let error: GoldenFormatError | undefined;
    try {
      parseGolden(JSON.stringify(golden), 'goldens/b.json');
    } catch (e) {
      error = e as GoldenFormatError;
    }
    expect(error).toBeInstanceOf(GoldenFormatError);
    expect(error!.jsonPath).toBe('$.interactions[0].response.status');
    expect(error!.message).toMatch(/goldens\/b\.json: \$\.interactions\[0\]\.response\.status: .*number/i);
  });

  it('an unknown format version is refused at $.formatVersion', () => {
    expect(() => parseGolden(JSON.stringify({ ...sampleGolden(), formatVersion: 99 }), 'g.json')).toThrowError(/\$\.formatVersion/);
  });

  it('refusing to write an invalid golden leaves the previous file untouched', async () => {
    const file = join(dir(), 'a.json');
    await writeGolden(file, sampleGolden());
    const before = readFileSync(file, 'utf8');
    const broken = { ...sampleGolden(), recordedAt: 'yesterday' };
    await expect(writeGolden(file, broken)).rejects.toThrowError(/\$\.recordedAt/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(join(file, '..'))).toEqual(['a.json']);
  });

  it('a writer killed mid-write never leaves a partial golden (temp file + rename)', async () => {
    const target = join(dir(), 'big.json');
    await writeGolden(target, sampleGolden());
    const store = resolve(import.meta.dirname, 'store.ts');
    // The child rewrites a large golden in a loop; it is killed at an arbitrary point.
    const script = `
      import { writeGolden } from ${JSON.stringify(store)};
      const base = JSON.parse(process.argv[1]);
      const big = { ...base, input: 'x'.repeat(8_000_000) };
      process.stdout.write('ready\\n');
      for (;;) await writeGolden(${JSON.stringify(target)}, big);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(sampleGolden())], { stdio: ['ignore', 'pipe', 'inherit'] });
    const closed = new Promise((r) => child.once('close', r));
    await Promise.race([new Promise<void>((ready) => child.stdout.once('data', () => ready())), closed.then(() => { throw new Error('writer exited early'); })]);
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGKILL');
    await closed;
    const golden = parseGolden(readFileSync(target, 'utf8'), target);
    // The next read removes whatever temp file the killed writer left behind.
    await readGolden(target);
    expect(readdirSync(dirname(target)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // Either the old golden or a complete new one, never a torn file.
    expect(golden.input === 'x'.repeat(8_000_000) || JSON.stringify(golden.input) === JSON.stringify(sampleGolden().input)).toBe(true);
  });

  it('writes nothing when the target directory cannot be written', async () => {
    const blocker = join(dir(), 'file');
    writeFileSync(blocker, 'not a directory');
    await expect(writeGolden(join(blocker, 'a.json'), sampleGolden())).rejects.toThrow();
  });

  it('removes the temp files a killed writer left on the next read or write, never reading them', async () => {
    const folder = dir();
    const target = join(folder, 'a.json');
    await writeGolden(target, sampleGolden());
    // A writer that no longer runs (its pid is gone), one old enough to be stale whoever wrote it,
    // and one of a live process (this one's parent) written just now: a write in flight that stays.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('close', r));
    const deadTemp = `.a.json.${dead.pid}.0badf00d.tmp`;
    const oldTemp = `.b.json.${process.ppid}.00c0ffee.tmp`;
    const liveTemp = `.c.json.${process.ppid}.0000beef.tmp`;
    for (const name of [deadTemp, oldTemp, liveTemp]) writeFileSync(join(folder, name), '{"torn":');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(folder, oldTemp), hourAgo, hourAgo);
    expect(readGoldenSync(target)?.test).toEqual(sampleGolden().test);
    expect(readdirSync(folder).sort()).toEqual([liveTemp, 'a.json'].sort());
    // Writes clean up too.
    writeFileSync(join(folder, deadTemp), '{"torn":');
    await writeGolden(join(folder, 'd.json'), sampleGolden());
    expect(readdirSync(folder).filter((n) => n.endsWith('.tmp'))).toEqual([liveTemp]);
    expect(removeStaleTempFiles(folder, Date.now() + 3_600_000)).toEqual([liveTemp]);
  });
});
