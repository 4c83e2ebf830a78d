/**
 * The package as a user installs it, for the package tests: `npm pack` (whose prepack builds dist/) into a
 * temp dir outside the repository, unpacked as node_modules/ghostwire beside links to this repository's
 * dependencies (no registry), with a fixture project's files copied next to it. Under this repository's
 * Vitest config the tarball is packed once per run (./pack-once.ts) and each test file unpacks its own copy.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed after `timeoutMs`), collecting its output. */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A user's environment: Node 24 first on PATH, none of this run's Vitest/npm/CI variables or conditions. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TEST$|NODE_OPTIONS$|NODE_ENV$|npm_|CI$|GITHUB_ACTIONS$|GHOSTWIRE_|MOCKLLM_|OPENAI_|ANTHROPIC_|GEMINI_|GOOGLE_|GW_)/i.test(key)) continue;
    env[key] = value;
  }
  env.PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
}

export function explain(result: Run): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

export interface Installed {
  tmp: string;
  /** The user's project folder. */
  project: string;
  /** node_modules/ghostwire inside it. */
  pkg: string;
  /** The packed file list. */
  packed: string[];
  packMs: number;
  remove(): Promise<void>;
}

/** A packed tarball of this repository. */
export interface Packed {
  /** Absolute path of the .tgz file. */
  tarball: string;
  /** The packed file list. */
  files: string[];
  packMs: number;
}

/**
 * `npm pack` of this repository (its prepack builds dist/) into `destination`.
 * @example const { tarball, files } = await packRepository(await mkdtemp(join(tmpdir(), 'pack-')))
 */
export async function packRepository(destination: string): Promise<Packed> {
  const started = performance.now();
  // --offline: packing a local folder needs no registry, and a test must never reach one.
  const pack = await run('npm', ['pack', '--json', '--offline', '--pack-destination', destination], { cwd: ROOT, env: userEnv(), timeoutMs: 170_000 });
  if (pack.code !== 0) throw new Error(`npm pack failed: ${explain(pack)}`);
  const packMs = Math.round(performance.now() - started);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  return { tarball: join(destination, info.filename), files: info.files.map((f) => f.path), packMs };
}

/** Asks this run's pack-once socket (./pack-once.ts) for the tarball it packed, packing it on the first ask. */
function packedForThisRun(socket: string): Promise<Packed> {
  return new Promise((resolve, reject) => {
    let answer = '';
    connect(socket)
      .setEncoding('utf8')
      .on('data', (chunk: string) => (answer += chunk))
      .on('error', reject)
      .on('end', () => {
        const parsed = JSON.parse(answer) as { packed: Packed } | { error: string };
        if ('error' in parsed) reject(new Error(parsed.error));
        else resolve(parsed.packed);
      });
  });
}

/**
 * Installs this repository's packed tarball into a fresh temp project and copies `fixture` (a folder of
 * this repository) into it. The tarball is this run's shared one when Vitest provides it, else packed here.
 * @example const { project, remove } = await installPacked('fixtures/user-project')
 */
export async function installPacked(fixture: string): Promise<Installed> {
  const tmp = await mkdtemp(join(tmpdir(), 'ghostwire-pack-'));
  const socket = inject('ghostwirePackSocket');
  const packed = socket ? await packedForThisRun(socket) : await packRepository(tmp);
  const project = join(tmp, 'project');
  const pkg = join(project, 'node_modules', 'ghostwire');
  await mkdir(pkg, { recursive: true });
  const untar = await run('tar', ['-xzf', packed.tarball, '--strip-components=1', '-C', pkg], { cwd: tmp, env: userEnv(), timeoutMs: 30_000 });
  if (untar.code !== 0) throw new Error(`tar failed: ${explain(untar)}`);
  // The dependencies, as an install would provide them: links to this repository's node_modules.
  for (const name of await readdir(join(ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'ghostwire') continue;
    await symlink(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'junction');
  }
  // Its own package.json stops Node's package scope lookup from reaching any outer project.
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'ghostwire-user', private: true, type: 'module' })}\n`);
  await cp(join(ROOT, fixture), project, { recursive: true });
  return { tmp, project, pkg, packed: packed.files, packMs: packed.packMs, remove: () => rm(tmp, { recursive: true, force: true }) };
}
