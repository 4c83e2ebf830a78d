/**
 * OpenAI Realtime (GA) wire pieces shared by the session's files: ids in the API's shapes, the
 * `error` event, and the session object `session.created` and `session.updated` carry.
 * Shapes from the openai SDK's resources/realtime/realtime.ts (RealtimeErrorEvent,
 * RealtimeSessionCreateRequest) and https://platform.openai.com/docs/api-reference/realtime-server-events.
 */
import { ID_ALPHABETS, RandomBytes } from '../common/ids.ts';

/** Output audio: PCM16 at 24 kHz, the only rate the GA API speaks `audio/pcm` at. */
export const OUTPUT_RATE = 24_000;

/** Ids of one connection: `event_…`, `item_…`, `resp_…`, `call_…`, `sess_…`, `conv_…`. */
export class RealtimeIds {
  readonly #random = new RandomBytes();
  next(prefix: 'event' | 'item' | 'resp' | 'sess' | 'conv'): string {
    return `${prefix}_${this.#random.chars(21, ID_ALPHABETS.alnum)}`;
  }
  call(): string {
    return `call_${this.#random.chars(16, ID_ALPHABETS.alnum)}`;
  }
}

/** A client event's mistake, answered with an `error` event (the connection stays open). */
export class RealtimeClientError extends Error {
  readonly code: string | null;
  readonly param: string | null;
  readonly type: string;
  constructor(message: string, code: string | null, param: string | null = null, type = 'invalid_request_error') {
    super(message);
    this.code = code;
    this.param = param;
    this.type = type;
  }
}

/** `Missing required parameter: 'item.call_id'.` as the API words it. */
export function missing(param: string): RealtimeClientError {
  return new RealtimeClientError(`Missing required parameter: '${param}'.`, 'missing_required_parameter', param);
}

/** `Invalid value: 'x'. Supported values are: 'a', 'b'.` as the API words it. */
export function invalidValue(param: string, value: unknown, supported: readonly string[]): RealtimeClientError {
  const list = supported.map((s) => `'${s}'`).join(', ');
  return new RealtimeClientError(`Invalid value: ${JSON.stringify(value)}. Supported values are: ${list}.`, 'invalid_value', param);
}

/** A parameter of the wrong JSON type. */
export function invalidType(param: string, expected: string, value: unknown): RealtimeClientError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return new RealtimeClientError(`Invalid type for '${param}': expected ${expected}, but got ${got} instead.`, 'invalid_type', param);
}

/** The `error` server event. `clientEventId` names the client event at fault, when it had one. */
export function errorEvent(ids: RealtimeIds, error: { type: string; code: string | null; message: string; param: string | null }, clientEventId: string | null): Record<string, unknown> {
  return { type: 'error', event_id: ids.next('event'), error: { type: error.type, code: error.code, message: error.message, param: error.param, event_id: clientEventId } };
}

/** A model session's settings as `session.created` shows them before any `session.update`. */
export function defaultSession(ids: RealtimeIds, model: string): Record<string, unknown> {
  return {
    type: 'realtime',
    object: 'realtime.session',
    id: ids.next('sess'),
    model,
    output_modalities: ['audio'],
    instructions: '',
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
    tracing: null,
    truncation: 'auto',
    prompt: null,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: OUTPUT_RATE },
        transcription: null,
        noise_reduction: null,
        turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 200, idle_timeout_ms: null, create_response: true, interrupt_response: true },
      },
      output: { format: { type: 'audio/pcm', rate: OUTPUT_RATE }, voice: 'alloy', speed: 1 },
    },
    include: null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `session.update`'s session merged into the current one: nested objects (audio.input, …) merge
 * key by key, anything else replaces. `type` is required (GA: RealtimeSessionCreateRequest.type).
 */
export function mergeSession(current: Record<string, unknown>, update: unknown): Record<string, unknown> {
  if (!isObject(update)) throw update === undefined ? missing('session') : invalidType('session', 'an object', update);
  if (update.type === undefined) throw missing('session.type');
  if (update.type !== 'realtime' && update.type !== 'transcription') throw invalidValue('session.type', update.type, ['realtime', 'transcription']);
  for (const key of ['tools', 'output_modalities'] as const) {
    if (update[key] !== undefined && !Array.isArray(update[key])) throw invalidType(`session.${key}`, 'an array', update[key]);
  }
  return merge(current, update);
}

function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const prior = out[key];
    out[key] = isObject(value) && isObject(prior) ? merge(prior, value) : value;
  }
  return out;
}

/** The session's `audio.input` settings, read defensively. */
export function inputAudio(session: Record<string, unknown>): { rate: number; bytesPerSample: number; vad: Record<string, unknown> | null; transcription: unknown } {
  const input = isObject(session.audio) && isObject(session.audio.input) ? session.audio.input : {};
  const format = isObject(input.format) ? input.format : {};
  const pcm = format.type === undefined || format.type === 'audio/pcm';
  const rate = pcm ? (typeof format.rate === 'number' ? format.rate : OUTPUT_RATE) : 8000;
  return { rate, bytesPerSample: pcm ? 2 : 1, vad: isObject(input.turn_detection) ? input.turn_detection : null, transcription: input.transcription ?? null };
}

export { isObject };
