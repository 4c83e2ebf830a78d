/**
 * Id minting in the providers' own formats. Random (crypto) rather than counters: ids must not
 * collide across sessions or workers, and goldens mask them anyway.
 */
import { randomFillSync, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The characters a random id part is drawn from. */
export const ID_ALPHABETS = {
  /** [A-Za-z0-9]: OpenAI's, Anthropic's and Mistral's ids. */
  alnum: ALNUM,
  /** [a-z0-9]: Gemini's and Cohere's tool call ids. */
  lower: 'abcdefghijklmnopqrstuvwxyz0123456789',
  /** [0-9a-f]: the Responses API's `fc_…` and `msg_…` item ids. */
  hex: '0123456789abcdef',
  /** [A-Za-z0-9_-]: Bedrock Converse's `tooluse_` ids (16 bytes in URL-safe base64). */
  base64url: `${ALNUM}-_`,
} as const;

// A pool starts small (every mock, each session of a server, has one) and grows while it is drawn
// from: a refill costs a few µs however few bytes it fills (measured on the real port: 0.6 µs a
// request with 512 bytes, one refill per 17 response ids), so a busy mock draws 8 KiB at a time.
const FIRST_POOL_BYTES = 512;
/** A table entry for a byte the draw drops (no ASCII character is 255). */
const REJECTED = 255;
const MAX_POOL_BYTES = 8192;

/**
 * Random bytes drawn a few hundred (up to a few thousand) at a time: ~5x cheaper per id than
 * reading randomUUIDs (what the transport core mints response and tool call ids from, once per
 * request). One per mock, not per module.
 * @example
 *   const random = new RandomBytes();
 *   randomAlnum(29, ID_ALPHABETS.alnum, random) // 'B9MBs8CjcvOU2jLn4n570S5qMJKcT'
 */
export class RandomBytes {
  #buf = Buffer.alloc(0);
  #pos = 0;
  readonly #fill: (buf: Buffer) => void;

  /** `fill` writes a pool's bytes (crypto's by default; a test may give its own). */
  constructor(fill: (buf: Buffer) => void = randomFillSync) {
    this.#fill = fill;
  }

  /** The next random byte. */
  next(): number {
    if (this.#pos === this.#buf.length) this.#refill();
    return this.#buf[this.#pos++];
  }

  #refill(): void {
    const size = this.#buf.length;
    // Its own memory (not a slice of node's shared pool): it is kept and refilled.
    if (size < MAX_POOL_BYTES) this.#buf = Buffer.allocUnsafeSlow(size === 0 ? FIRST_POOL_BYTES : size * 2);
    this.#fill(this.#buf);
    this.#pos = 0;
  }

  #scratch = Buffer.allocUnsafe(64);
  /** Per alphabet, each byte's character code, or REJECTED for the bytes a uniform draw drops. */
  readonly #tables = new Map<string, Uint8Array>();

  /**
   * `length` characters of `alphabet` (ASCII, at most 255), uniform: bytes at or above the largest
   * multiple of its size are dropped. Written into a scratch buffer and read as one string: adding
   * a character at a time made a new string per character (about 0.3 µs of a response id). Each
   * byte's character comes from a table made once per alphabet, not from a division and a string
   * read per character (the ids of a tool-call answer were ~3% of a request's instructions).
   */
  chars(length: number, alphabet: string): string {
    const table = this.#tables.get(alphabet) ?? this.#table(alphabet);
    if (this.#scratch.length < length) this.#scratch = Buffer.allocUnsafe(length);
    const out = this.#scratch;
    let n = 0;
    if (this.next !== BASE_NEXT) {
      // A subclass gives its own bytes: each through its next().
      while (n < length) {
        const code = table[this.next()];
        if (code !== REJECTED) out[n++] = code;
      }
      return out.toString('latin1', 0, length);
    }
    // The pool read in place, its position kept in a local (through next() and the fields, a character
    // cost ~50 instructions: the largest part of ghostwire's own work on a tool-call answer).
    let buf = this.#buf;
    let pos = this.#pos;
    while (n < length) {
      if (pos === buf.length) {
        this.#pos = pos;
        this.#refill();
        buf = this.#buf;
        pos = 0;
      }
      const code = table[buf[pos++]];
      if (code !== REJECTED) out[n++] = code;
    }
    this.#pos = pos;
    return out.toString('latin1', 0, length);
  }

  #table(alphabet: string): Uint8Array {
    const size = alphabet.length;
    const limit = 256 - (256 % size);
    const table = new Uint8Array(256).fill(REJECTED);
    for (let b = 0; b < limit; b++) table[b] = alphabet.charCodeAt(b % size);
    this.#tables.set(alphabet, table);
    return table;
  }

  /**
   * A random version 4 UUID (`8-4-4-4-12` hex digits, version `4`, variant one of `89ab`), drawn as
   * one value: answer templates draw it afresh per answer as they do `chars` (common/answer-templates.ts).
   */
  uuid(): string {
    const h = this.chars(31, ID_ALPHABETS.hex);
    // The 31st digit picks the variant: 16 digits onto 4 variants, uniform.
    const variant = '89ab'[nibble(h.charCodeAt(30)) & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(12, 15)}-${variant}${h.slice(15, 18)}-${h.slice(18, 30)}`;
  }
}

/** The pool's own `next`: `chars` reads the pool in place unless a subclass gives its bytes otherwise. */
const BASE_NEXT = RandomBytes.prototype.next;

/**
 * A random UUID from `random`'s pool when given, else node's.
 * @example
 *   randomUuid(random) // '3f9e1b5a-8c2d-4e7f-a1b2-c3d4e5f60718'
 */
export function randomUuid(random?: RandomBytes): string {
  return random ? random.uuid() : randomUUID();
}

/** A lowercase hex digit's value from its char code. */
const nibble = (code: number): number => (code < 97 ? code - 48 : code - 87);

/**
 * A random string of `length` characters from `alphabet` (default [A-Za-z0-9]), from `random`'s
 * pool when given, else from randomUUIDs.
 * @example
 *   randomAlnum(24) // 'f3Kq...'
 *   randomAlnum(8, ID_ALPHABETS.lower) // '46ww9pp1'
 */
export function randomAlnum(length: number, alphabet: string = ALNUM, random?: RandomBytes): string {
  const size = alphabet.length;
  // Bytes at or above the largest multiple of the alphabet's size are dropped: uniform characters.
  const limit = 256 - (256 % size);
  if (random) return random.chars(length, alphabet);
  let out = '';
  while (out.length < length) {
    // randomUUID draws from a cached entropy pool: ~10x cheaper per id than randomBytes (tool calls
    // mint on the request path). Its 14 whole random bytes: every hex pair but the version's and variant's.
    const hex = randomUUID();
    for (let i = 0; i < 36 && out.length < length; i += 2) {
      if (hex.charCodeAt(i) === 45 /* - */) i += 1;
      if (i === 14 || i === 19) continue;
      // Char codes, not slice + parseInt: this loop runs per character on the request path.
      const b = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
      if (b < limit) out += alphabet[b % size];
    }
  }
  return out;
}

/**
 * How an API shapes the ids it mints for tool calls: a fixed prefix (or one made from the tool's
 * name, as Cohere's `get_weather_…`), then `length` random characters of `alphabet`.
 */
export interface ToolCallIdShape {
  readonly prefix: string | ((toolName: string) => string);
  readonly length: number;
  /** Default `alnum`. */
  readonly alphabet?: keyof typeof ID_ALPHABETS;
}

/** OpenAI's (and Azure's, and the Responses API's `call_id`): `call_` + 24 of [A-Za-z0-9]. */
export const OPENAI_TOOL_CALL_IDS: ToolCallIdShape = { prefix: 'call_', length: 24 };

/**
 * A fresh tool call id in an API's shape: what an adapter's `toolCallId` returns for a call the
 * scenario gave no id.
 * @example
 *   mintToolCallId({ prefix: 'toolu_01', length: 22 }, 'get_weather') // 'toolu_01D7FLrfh4GYq7yT1ULFeyMV'
 *   mintToolCallId({ prefix: (name) => `${name}_`, length: 12, alphabet: 'lower' }, 'get_weather') // 'get_weather_hgxxmkby3wta'
 */
export function mintToolCallId(shape: ToolCallIdShape, toolName: string, random?: RandomBytes): string {
  const prefix = typeof shape.prefix === 'string' ? shape.prefix : shape.prefix(toolName);
  return prefix + randomAlnum(shape.length, ID_ALPHABETS[shape.alphabet ?? 'alnum'], random);
}

/**
 * How an API shapes the id of a response (message, completion): a fixed prefix then `length`
 * random characters of `alphabet`, or `'uuid'` for a random UUID (Cohere's).
 */
export type ResponseIdShape = { readonly prefix: string; readonly length: number; readonly alphabet?: keyof typeof ID_ALPHABETS } | 'uuid';

/**
 * OpenAI Chat Completions' (and Azure's) completion ids: `chatcmpl-` + 29 of [A-Za-z0-9]
 * (`chatcmpl-991aYb1iD8OSD54gcxZxv8uazlTZy` in recorded API streams).
 */
export const OPENAI_CHAT_RESPONSE_IDS: ResponseIdShape = { prefix: 'chatcmpl-', length: 29 };

/**
 * A fresh response id in an API's shape: what the engine gives a response on a wire whose
 * adapter declares `responseIds`.
 * @example
 *   mintResponseId({ prefix: 'msg_01', length: 22 }) // 'msg_01XFDUDYJgAACzvnptvVoYEL'
 *   mintResponseId('uuid') // '29f14a5a-11de-4cae-9800-25e4747408ea'
 */
export function mintResponseId(shape: ResponseIdShape, random?: RandomBytes): string {
  if (shape === 'uuid') return randomUUID();
  return shape.prefix + randomAlnum(shape.length, ID_ALPHABETS[shape.alphabet ?? 'alnum'], random);
}

/**
 * A fresh id with a prefix, e.g. `call_` + 24 characters as OpenAI mints tool call ids.
 * @example
 *   mintId('call_') // 'call_Vx2...'
 */
export function mintId(prefix: string, length = 24): string {
  return prefix + randomAlnum(length);
}

/**
 * A request id as OpenAI sends in `x-request-id`: `req_` + 32 hex digits.
 * @example
 *   mintRequestId() // 'req_4f0c...'
 */
export function mintRequestId(): string {
  // randomUUID draws from a cached entropy pool: far cheaper per call than randomBytes (hot path).
  return `req_${randomUUID().replaceAll('-', '')}`;
}

/**
 * Prefixes a canonical response id the way an API does, unless it already carries the prefix.
 * @example
 *   withPrefix('chatcmpl-', 'abc') // 'chatcmpl-abc'
 */
export function withPrefix(prefix: string, id: string): string {
  return id.startsWith(prefix) ? id : prefix + id;
}
