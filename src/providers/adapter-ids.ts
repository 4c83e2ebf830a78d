/**
 * The ids of one request's answer in its API's shapes: what the transport core hands the engine
 * (`engine.select(request, new AdapterIds(adapter, request))`). A class, not closures: one small
 * object per request on the hot path, its methods shared.
 */
import type { CanonicalRequest } from '../scenario/canonical.ts';
import type { IdMinter } from '../scenario/selection.ts';
import type { ProviderAdapter } from './adapter.ts';
import { mintResponseId, mintToolCallId, OPENAI_TOOL_CALL_IDS, type RandomBytes } from './common/ids.ts';

/**
 * Mints a request's response id and missing tool call ids as its adapter declares them
 * (`responseIds`, `toolCallIds`), from the core's random pool; tool call ids default to OpenAI's
 * shape, a response id to none.
 * @example
 *   const ids = new AdapterIds(anthropicAdapter(), request, new RandomBytes());
 *   ids.responseId() // 'msg_01XFDUDYJgAACzvnptvVoYEL'
 *   ids.toolCallId('get_weather') // 'toolu_01D7FLrfh4GYq7yT1ULFeyMV'
 */
export class AdapterIds implements IdMinter {
  readonly #adapter: ProviderAdapter;
  readonly #request: CanonicalRequest;
  readonly #random: RandomBytes;

  constructor(adapter: ProviderAdapter, request: CanonicalRequest, random: RandomBytes) {
    this.#adapter = adapter;
    this.#request = request;
    this.#random = random;
  }

  toolCallId(toolName: string): string {
    return mintToolCallId(this.#adapter.toolCallIds?.(this.#request) ?? OPENAI_TOOL_CALL_IDS, toolName, this.#random);
  }

  responseId(): string | undefined {
    const shape = this.#adapter.responseIds?.(this.#request);
    return shape === undefined ? undefined : mintResponseId(shape, this.#random);
  }
}
