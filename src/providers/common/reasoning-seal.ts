/**
 * Signatures and encrypted content of reasoning, minted by the mock and checked by the same mock:
 * Anthropic's thinking `signature`, Bedrock's `reasoningText.signature`, Gemini's `thoughtSignature`,
 * the Responses API's `encrypted_content`. Real APIs hand these out opaque and refuse a conversation
 * that passes them back altered or not at all; a mock that mints them with a key of its own can
 * tell the same, so a test catches code that drops, reorders or edits them.
 *
 * Signatures are HMAC-SHA256 over the signed text (and a purpose, so a Gemini signature is not an
 * Anthropic one); encrypted content is AES-256-GCM of the text, so it is really opaque and its
 * tag proves it untouched. The key is per instance: one per mock (an adapter's state), never on disk.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A per-mock key that signs and seals reasoning.
 * @example
 *   const seal = new ReasoningSeal();
 *   const signature = seal.sign('thinking', 'The user wants Paris.');
 *   seal.verify('thinking', 'The user wants Paris.', signature); // true
 *   seal.open(seal.encrypt('secret chain of thought')); // 'secret chain of thought'
 */
export class ReasoningSeal {
  readonly #key: Buffer;
  /**
   * Names this seal, not its key (it says nothing of it): answers signed with this seal may share a
   * template only under its name (common/answer-templates.ts; templates are shared by a server's mocks).
   */
  readonly id = randomUUID();

  constructor(key: Buffer = randomBytes(32)) {
    this.#key = key;
  }

  /** A base64 signature of `text` for `purpose` (its length is fixed: 44 characters plus the prefix bytes). */
  sign(purpose: string, text: string): string {
    // A version byte and the purpose's own prefix make it look like (and be as opaque as) the real ones.
    const mac = createHmac('sha256', this.#key).update(purpose).update('\u0000').update(text).digest();
    return Buffer.concat([Buffer.from([1]), mac]).toString('base64');
  }

  /** Does `signature` sign exactly `text` for `purpose`? False for anything else (a string that is not base64 included). */
  verify(purpose: string, text: string, signature: unknown): boolean {
    if (typeof signature !== 'string' || signature.length === 0) return false;
    const expected = Buffer.from(this.sign(purpose, text), 'base64');
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** `text` encrypted and authenticated, as base64: opaque to the client, readable by this seal only. */
  encrypt(text: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The text inside `sealed`, or null when it was not made by this seal or was altered. */
  open(sealed: unknown): string | null {
    if (typeof sealed !== 'string') return null;
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
