import { describe, expect, it } from 'vitest';
import { LineGate } from './line-gate.ts';

const b = (s: string) => Buffer.from(s);

describe('LineGate', () => {
  it('holds a line until its newline comes, then gives every byte through the last newline', () => {
    const gate = new LineGate(100);
    expect(gate.take(b('{"a":'))).toBeNull();
    expect(gate.take(b('1}'))).toBeNull();
    expect(gate.take(b('\n{"b":2}\n{"c"'))?.toString()).toBe('{"a":1}\n{"b":2}\n');
    expect(gate.take(b(':3}\n'))?.toString()).toBe('{"c":3}\n');
  });

  it('refuses a line longer than its limit, naming the limit, and starts afresh after', () => {
    const gate = new LineGate(10);
    expect(gate.take(b('12345'))).toBeNull();
    expect(() => gate.take(b('678901'))).toThrow(/exceeded the maximum size of 10 bytes/);
    expect(gate.take(b('ok\n'))?.toString()).toBe('ok\n');
  });

  it("refuses an 11 MB line sent in 64 KiB pipe chunks at the SDK's 10 MB limit", () => {
    const gate = new LineGate();
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    let refused = false;
    for (let i = 0; i < 176 && !refused; i++) {
      try {
        gate.take(chunk);
      } catch {
        refused = true;
      }
    }
    expect(refused).toBe(true);
  });
});
