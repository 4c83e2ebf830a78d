/**
 * Preloaded into every server process a bench starts (`node --import <this> server.ts`): the bench holds
 * the write end of this process's stdin, so when the bench's process ends in any way (a Vitest worker
 * ended without its `afterAll` or `exit` handlers, a filter that skipped every bench of a file, a kill),
 * stdin ends here and the server's process group goes with it. Nothing is read per request: one listener
 * on a pipe that stays silent until its writer is gone.
 */
process.stdin.once('end', () => {
  try {
    // The whole group: a server (aimock's CLI) may have started children of its own.
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    process.exit(0);
  }
});
process.stdin.resume();
// The pipe must not keep a server alive that is ending on its own.
process.stdin.unref?.();
