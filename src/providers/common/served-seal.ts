/**
 * The seal of a golden replay: it mints nothing (the golden's answers carry values minted when it was
 * recorded) and accepts exactly the reasoning values the replay served, on the block it served them on.
 * An adapter's own protocol rules run with it in place of the live mock's seal, so a replay refuses a
 * value that is altered, foreign or moved with the very error the live mock gives (see
 * docs/decisions/golden-volatile-request-fields.md).
 */
import { ReasoningSeal } from './reasoning-seal.ts';

/**
 * Signatures and sealed content a replay served, told to it by the adapter that read each answer.
 * @example
 *   const seal = new ServedSeal();
 *   seal.servedSignature('anthropic.thinking', 'The user wants Paris.', 'EqQBCkgIARABGAIiQ...');
 *   seal.verify('anthropic.thinking', 'The user wants Paris.', 'EqQBCkgIARABGAIiQ...'); // true
 *   seal.verify('anthropic.thinking', 'Something else.', 'EqQBCkgIARABGAIiQ...'); // false
 */
export class ServedSeal extends ReasoningSeal {
  /** Signature → the `purpose\0text` each was served for. */
  readonly #signed = new Map<string, Set<string>>();
  /** Sealed content → what opening it gives (what the live mock's seal would have sealed). */
  readonly #sealed = new Map<string, string>();

  /** A signature served for `text` (the thinking it signs) and `purpose`. */
  servedSignature(purpose: string, text: string, signature: string): void {
    if (signature === '') return;
    let texts = this.#signed.get(signature);
    if (!texts) this.#signed.set(signature, (texts = new Set()));
    texts.add(`${purpose}\u0000${text}`);
  }

  /** Sealed content served; `opens` is what the adapter's rules expect to read inside (a purpose prefix). */
  servedSealed(sealed: string, opens: string): void {
    if (sealed !== '') this.#sealed.set(sealed, opens);
  }

  /** Was `signature` served for exactly this `text` and `purpose`? */
  override verify(purpose: string, text: string, signature: unknown): boolean {
    return typeof signature === 'string' && (this.#signed.get(signature)?.has(`${purpose}\u0000${text}`) ?? false);
  }

  /** What served sealed content stands for; null for anything this replay did not serve. */
  override open(sealed: unknown): string | null {
    return typeof sealed === 'string' ? (this.#sealed.get(sealed) ?? null) : null;
  }

  /** A replay mints nothing: its answers are the golden's. */
  override sign(): string {
    throw new Error('ServedSeal: a golden replay does not sign reasoning');
  }

  override encrypt(): string {
    throw new Error('ServedSeal: a golden replay does not encrypt reasoning');
  }
}
