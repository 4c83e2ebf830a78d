/** Errors of the goldens module, each naming the file and where in it. */
import type { CanonicalError } from '../scenario/canonical.ts';

/**
 * A golden file that is not valid JSON or does not fit the schema.
 * @example
 *   if (error instanceof GoldenFormatError) console.error(`${error.file} at ${error.jsonPath}`);
 */
export class GoldenFormatError extends Error {
  readonly file: string;
  readonly jsonPath: string;
  constructor(file: string, jsonPath: string, message: string) {
    super(`${file}: ${jsonPath}: ${message}`);
    this.name = 'GoldenFormatError';
    this.file = file;
    this.jsonPath = jsonPath;
  }
}

/**
 * A golden that contains a configured secret: refused on write and on replay.
 * @example
 *   if (error instanceof GoldenLeakError) console.error(`secret at ${error.file} ${error.jsonPath}`);
 */
export class GoldenLeakError extends Error {
  readonly file: string;
  readonly jsonPath: string;
  readonly secretLabel: string;
  constructor(file: string, jsonPath: string, secretLabel: string, action: 'write' | 'replay') {
    super(
      `${file}: refusing to ${action} a golden that contains the secret ${secretLabel} at ${jsonPath}. ` +
        `Add the value to the plugin's "redact" list (or remove it from the file) and record again.`,
    );
    this.name = 'GoldenLeakError';
    this.file = file;
    this.jsonPath = jsonPath;
    this.secretLabel = secretLabel;
  }
}

/**
 * A replayed request that matches no recorded interaction.
 * @example
 *   if (error instanceof GoldenMismatchError) console.error(error.requestDiff);
 */
export class GoldenMismatchError extends Error {
  readonly file: string;
  /** The request diff (named so Vitest does not print it a second time as an assertion diff). */
  readonly requestDiff: string;
  /**
   * The error the client gets, when it is an API's own (a reasoning value this replay did not serve is
   * refused as the live mock refuses it); otherwise a 400 carrying this error's message.
   */
  readonly wire: CanonicalError | undefined;
  constructor(file: string, message: string, diff: string, wire?: CanonicalError) {
    super(`${message}\n${diff}`);
    this.name = 'GoldenMismatchError';
    this.file = file;
    this.requestDiff = diff;
    this.wire = wire;
  }

  /** What the client is answered: `wire`, or a 400 `invalid_request_error` with this error's message (SDKs do not retry it). */
  clientError(): CanonicalError {
    return this.wire ?? { status: 400, message: this.message, type: 'invalid_request_error', headers: {} };
  }
}
