import { describe, expect, it } from 'vitest';
import { ReasoningSeal } from './reasoning-seal.ts';

describe('ReasoningSeal', () => {
  it('verifies its own signature of the exact text and purpose only', () => {
    const seal = new ReasoningSeal();
    const signature = seal.sign('thinking', 'The user wants Paris.');
    expect(seal.verify('thinking', 'The user wants Paris.', signature)).toBe(true);
    expect(seal.verify('thinking', 'The user wants Paris!', signature)).toBe(false);
    expect(seal.verify('thought', 'The user wants Paris.', signature)).toBe(false);
    expect(new ReasoningSeal().verify('thinking', 'The user wants Paris.', signature)).toBe(false);
    expect(seal.verify('thinking', 'The user wants Paris.', 'not base64 at all')).toBe(false);
    expect(seal.verify('thinking', 'The user wants Paris.', undefined)).toBe(false);
  });

  it('encrypts opaquely and opens only untouched content of its own', () => {
    const seal = new ReasoningSeal();
    const sealed = seal.encrypt('chain of thought');
    expect(sealed).not.toContain('chain');
    expect(seal.open(sealed)).toBe('chain of thought');
    const bytes = Buffer.from(sealed, 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(seal.open(bytes.toString('base64'))).toBeNull();
    expect(new ReasoningSeal().open(sealed)).toBeNull();
    expect(seal.open('short')).toBeNull();
    expect(seal.open(42)).toBeNull();
  });
});
