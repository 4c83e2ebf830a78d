// What ghostwire runs on, checked where it starts (the plugin, the setup file) so a mismatch fails with
// what to install rather than with a missing built-in module or a require() error deep inside.

/**
 * Node >= 22.13 and Vitest >= 5 (when its version is known), or an error naming what to install.
 * @example checkRuntime(process.versions.node, vitest.version)
 */
export function checkRuntime(node: string, vitest: string | undefined): void {
  const [major, minor] = node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 13)) {
    throw new Error(`ghostwire needs Node.js >= 22.13 (this is ${node}); install a current Node.js (22.13+ or 24).`);
  }
  const vitestMajor = Number(vitest?.split('.')[0]);
  if (vitest !== undefined && !(vitestMajor >= 5)) {
    throw new Error(`ghostwire needs Vitest >= 5 (this is ${vitest}); npm install -D vitest@^5.`);
  }
}
