import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one run of a Python snippet produced. */
export interface PythonRun {
  /** Exit status 0, within the time limit. */
  success: boolean;
  stdout: string;
  /** Stripped, as GEM strips it. */
  stderr: string;
  timedOut: boolean;
}

/** Options for {@link runPython}. */
export interface PythonRunOptions {
  /** The interpreter; default `python3`. */
  python?: string;
  /** Seconds before the whole process group is killed. */
  timeoutSeconds: number;
  /** Bytes kept of stdout and of stderr each; the rest is dropped and the cut is stated. */
  maxOutputBytes: number;
}

// GEM passes only these variables to the child (and never PYTHONPATH).
const ESSENTIAL_VARS = ['PATH', 'HOME', 'USER', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'PYTHONIOENCODING', 'PYTHONUNBUFFERED', 'PYTHONHASHSEED', 'PYTHONDONTWRITEBYTECODE', 'MKL_NUM_THREADS', 'OMP_NUM_THREADS', 'NUMEXPR_NUM_THREADS', 'TMPDIR', 'TEMP', 'TMP', 'DISPLAY', 'XAUTHORITY'];
// Short code runs as `python -c code`, longer code from a file, as GEM does (tracebacks name `<string>` or the file).
const CLI_ARG_SIZE_LIMIT = 1024 * 3;

/**
 * Runs Python code in a child process of its own process group, in a fresh temporary
 * working directory (removed afterwards), with a minimal environment. On timeout the
 * whole group is killed (children the code started included). Output beyond
 * `maxOutputBytes` is dropped, with a line saying how much. Not a security sandbox:
 * the code runs with the user's rights and network.
 *
 * @example
 * const run = await runPython('print(6 * 7)', { timeoutSeconds: 5, maxOutputBytes: 65536 });
 * // { success: true, stdout: '42\n', stderr: '', timedOut: false }
 */
export async function runPython(code: string, options: PythonRunOptions): Promise<PythonRun> {
  const cwd = await mkdtemp(join(tmpdir(), 'ghostwire-python-'));
  try {
    let args: string[];
    if (code.length < CLI_ARG_SIZE_LIMIT) args = ['-c', code];
    else {
      const file = join(cwd, 'snippet.py');
      await writeFile(file, code);
      args = [file];
    }
    const env: Record<string, string> = { OPENBLAS_NUM_THREADS: '1' };
    for (const name of ESSENTIAL_VARS) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    return await new Promise<PythonRun>((resolve, reject) => {
      const child = spawn(options.python ?? 'python3', args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const out = collector(options.maxOutputBytes);
      const err = collector(options.maxOutputBytes);
      child.stdout.on('data', out.add);
      child.stderr.on('data', err.add);
      let timedOut = false;
      const killGroup = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, options.timeoutSeconds * 1000);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (status) => {
        clearTimeout(timer);
        killGroup(); // anything the code left running in its group ends with it
        resolve({ success: status === 0 && !timedOut, stdout: out.text(), stderr: err.text().trim(), timedOut });
      });
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

function collector(max: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  return {
    add: (chunk: Buffer) => {
      const room = Math.max(0, max - kept);
      if (room > 0) chunks.push(chunk.subarray(0, room));
      kept += Math.min(room, chunk.length);
      dropped += Math.max(0, chunk.length - room);
    },
    text: () => Buffer.concat(chunks).toString('utf8') + (dropped > 0 ? `\n…[output truncated: ${dropped} more bytes]` : ''),
  };
}
