// The plugin refuses, with what to install, a Node.js or Vitest it cannot work with.
import { describe, expect, it } from 'vitest';
import { checkRuntime } from './plugin.ts';

describe('checkRuntime', () => {
  it('accepts Node 22.13+ and Vitest 5+', () => {
    expect(() => checkRuntime('22.13.0', '5.0.0')).not.toThrow();
    expect(() => checkRuntime('24.1.0', '5.1.1')).not.toThrow();
    expect(() => checkRuntime('23.0.0', undefined)).not.toThrow();
  });

  it('names the Node.js it needs', () => {
    expect(() => checkRuntime('20.19.0', '5.1.1')).toThrow('ghostwire needs Node.js >= 22.13 (this is 20.19.0)');
    expect(() => checkRuntime('22.12.0', '5.1.1')).toThrow(/Node\.js >= 22\.13/);
  });

  it('names the Vitest it needs', () => {
    expect(() => checkRuntime('24.1.0', '4.0.7')).toThrow('ghostwire needs Vitest >= 5 (this is 4.0.7); npm install -D vitest@^5.');
  });
});
