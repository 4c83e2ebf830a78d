import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { GoldenFileSchema, type GoldenFile } from './schema.ts';
import { GoldenFormatError } from './errors.ts';
import { jsonPath } from './json-path.ts';
import { assertNoSecrets, assertNoSecretsAsync, type Secret } from './leak-scanner.ts';

/** `.{name}.{pid}.{8 hex}.tmp`: writeFileAtomic's temp files. */
const TEMP_FILE = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;
/** No write takes this long: a temp file this old is stale whoever wrote it (a reused pid). */
const TEMP_MAX_AGE_MS = 10 * 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temp files a killed writer left beside the goldens in `dir` (a SIGKILL between the
 * temp write and the rename): those of processes no longer running, and any older than 10 minutes.
 * Another live process's recent temp file is a write in flight and stays. Returns the names removed.
 * @example removeStaleTempFiles('goldens/src/agent.test.ts') // ['.a.json.4242.9f3c01ab.tmp']
 */
export function removeStaleTempFiles(dir: string, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_FILE.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const path = join(dir, name);
    try {
      const stale = (pid !== process.pid && !alive(pid)) || now - statSync(path).mtimeMs > TEMP_MAX_AGE_MS;
      if (!stale) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile (another worker cleaned it): nothing to do.
    }
  }
  return removed;
}

/**
 * Parses and validates a golden's text; errors name the file and the JSON path.
 * @example parseGolden(text, 'goldens/a/b.json')
 */
export function parseGolden(text: string, file: string): GoldenFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new GoldenFormatError(file, '$', `not valid JSON (${lineAndColumn(text, error)}): ${(error as Error).message}`);
  }
  const result = GoldenFileSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = jsonPath(issue.path);
    throw new GoldenFormatError(file, where, `${issue.message} (golden format version ${describeVersion(raw)})`);
  }
  return result.data;
}

function describeVersion(raw: unknown): string {
  const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).formatVersion : undefined;
  return v === undefined ? 'missing' : JSON.stringify(v);
}

function lineAndColumn(text: string, error: unknown): string {
  const m = /position (\d+)/.exec(String((error as Error).message));
  if (!m) return 'at an unknown position';
  const pos = Number(m[1]);
  const before = text.slice(0, pos).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/**
 * Reads a golden, validates it and runs the leak scanner (a golden holding a secret is refused).
 * Returns null when the file does not exist.
 * @example const golden = await readGolden('goldens/x.json', secrets)
 */
export async function readGolden(file: string, secrets: readonly Secret[] = []): Promise<GoldenFile | null> {
  removeStaleTempFiles(dirname(file));
  if (!existsSync(file)) return null;
  const golden = parseGolden(await readFile(file, 'utf8'), file);
  await assertNoSecretsAsync(golden, secrets, file, 'replay');
  return golden;
}

/**
 * Synchronous twin of readGolden, for matchers that must not return a promise. Its leak scan is
 * the synchronous part (values and provider key formats); secretlint's rules run on every write.
 * @example const golden = readGoldenSync('goldens/x.json', secrets)
 */
export function readGoldenSync(file: string, secrets: readonly Secret[] = []): GoldenFile | null {
  removeStaleTempFiles(dirname(file));
  if (!existsSync(file)) return null;
  const golden = parseGolden(readFileSync(file, 'utf8'), file);
  assertNoSecrets(golden, secrets, file, 'replay');
  return golden;
}

/**
 * Stable, diffable text: 2-space JSON with a final newline.
 * @example
 *   writeFileSync(file, serializeGolden(golden));
 */
export function serializeGolden(golden: GoldenFile): string {
  return `${JSON.stringify(golden, null, 2)}\n`;
}

/**
 * Validates, scans for secrets and writes atomically: a temp file in the same directory, then rename.
 * A failure at any point leaves the previous file untouched.
 * @example await writeGolden('goldens/x.json', golden, secrets)
 */
export async function writeGolden(file: string, golden: GoldenFile, secrets: readonly Secret[] = []): Promise<void> {
  const checked = GoldenFileSchema.safeParse(golden);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new GoldenFormatError(file, jsonPath(issue.path), `refusing to write an invalid golden: ${issue.message}`);
  }
  await assertNoSecretsAsync(golden, secrets, file, 'write');
  await writeFileAtomic(file, serializeGolden(golden));
}

/**
 * Writes text through a temp file + rename so readers never see a partial file; temp files a
 * killed writer left in the same folder are removed first (never read: their names end in .tmp).
 * @example await writeFileAtomic('out.json', '{}\n')
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  removeStaleTempFiles(dirname(file));
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
