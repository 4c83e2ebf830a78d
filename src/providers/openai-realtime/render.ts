/**
 * One Realtime response as server events, in the GA API's order (platform.openai.com/docs/guides/realtime-conversations):
 * response.created; per output item: response.output_item.added, conversation.item.added, then for
 * a message response.content_part.added, the text or audio deltas (audio with its transcript deltas),
 * their .done events, response.content_part.done; for a function call the arguments' deltas and
 * .done; response.output_item.done, conversation.item.done; then response.done with usage, and
 * rate_limits.updated. `stream.chunkDelayMs` paces the deltas; a cancel stops between two events.
 */
import { pcmChunks, splitEvenly, synthesizeSpeech } from '../common/pcm.ts';
import { pause } from '../realtime-adapter.ts';
import type { CanonicalResponse } from '../../scenario/canonical.ts';
import type { Item } from './conversation.ts';
import { OUTPUT_RATE, type RealtimeIds } from './wire.ts';

type Event = Record<string, unknown>;

export interface RenderTarget {
  ids: RealtimeIds;
  send(event: Event): void;
  /** Adds an output item to the conversation (it becomes part of later turns); undefined for an out-of-band response (`conversation: 'none'`). */
  addItem(item: Item): string | null | undefined;
}

function chunksOf(text: string, response: CanonicalResponse): string[] {
  if (response.stream.chunks) return response.stream.chunks;
  const size = response.stream.chunkSize;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function usageOf(response: CanonicalResponse, audioOut: boolean): Record<string, unknown> {
  const { inputTokens, outputTokens } = response.usage;
  const audioTokens = audioOut ? Math.ceil(outputTokens * 2.5) : 0;
  const output = outputTokens + audioTokens;
  return {
    total_tokens: inputTokens + output,
    input_tokens: inputTokens,
    output_tokens: output,
    input_token_details: { text_tokens: inputTokens, audio_tokens: 0, image_tokens: 0, cached_tokens: 0, cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 } },
    output_token_details: { text_tokens: outputTokens, audio_tokens: audioTokens },
  };
}

/** A response being sent; `cancel()` ends it as `cancelled` at the next event boundary. */
export class ResponseRun {
  readonly id: string;
  #cancelled: 'client_cancelled' | 'turn_detected' | null = null;
  #done = false;
  readonly #target: RenderTarget;
  readonly #response: CanonicalResponse;
  readonly #modalities: string[];
  readonly #shell: Event;
  readonly #output: Item[] = [];
  /** `conversation: 'none'`: the output stays out of the conversation and no conversation.item.* events go out. */
  #outOfBand = false;

  constructor(target: RenderTarget, response: CanonicalResponse, settings: { modalities: string[]; audio: unknown; conversationId: string; metadata: unknown }) {
    this.#target = target;
    this.#response = response;
    this.#modalities = settings.modalities;
    this.id = target.ids.next('resp');
    this.#shell = {
      object: 'realtime.response',
      id: this.id,
      status: 'in_progress',
      status_details: null,
      output: [],
      conversation_id: settings.conversationId,
      output_modalities: settings.modalities,
      max_output_tokens: 'inf',
      audio: settings.audio,
      usage: null,
      metadata: settings.metadata ?? null,
    };
  }

  get done(): boolean {
    return this.#done;
  }

  /** Cancelled, and ending at its next event boundary. */
  get cancelled(): boolean {
    return this.#cancelled !== null;
  }

  /** `client_cancelled` (response.cancel) or `turn_detected` (the user spoke over it, server VAD). */
  cancel(reason: 'client_cancelled' | 'turn_detected' = 'client_cancelled'): void {
    this.#cancelled ??= reason;
  }

  #send(event: Event): void {
    this.#target.send({ type: event.type, event_id: this.#target.ids.next('event'), ...event });
  }

  /** Sends the whole response; resolves when response.done went out (or the run was cancelled). */
  async run(latencyMs: number): Promise<void> {
    this.#send({ type: 'response.created', response: { ...this.#shell } });
    await pause(latencyMs);
    const r = this.#response;
    if (r.text && !this.#cancelled) await this.#message(r.text);
    for (const call of r.toolCalls) {
      if (this.#cancelled) break;
      await this.#functionCall(call.id, call.name, typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));
    }
    const cancelled = this.#cancelled;
    for (const item of this.#output) if (item.status === 'in_progress') item.status = 'incomplete';
    this.#done = true;
    this.#send({
      type: 'response.done',
      response: {
        ...this.#shell,
        status: cancelled ? 'cancelled' : 'completed',
        status_details: cancelled ? { type: 'cancelled', reason: cancelled } : null,
        output: this.#output.map((i) => ({ ...i })),
        usage: usageOf(r, this.#modalities.includes('audio') && r.text !== ''),
      },
    });
    const tokens = r.usage.inputTokens + r.usage.outputTokens;
    this.#send({
      type: 'rate_limits.updated',
      rate_limits: [
        { name: 'requests', limit: 5000, remaining: 4999, reset_seconds: 0.012 },
        { name: 'tokens', limit: 40_000, remaining: 40_000 - tokens, reset_seconds: 0.06 },
      ],
    });
  }

  #open(item: Item): { output_index: number } {
    const outputIndex = this.#output.length;
    this.#output.push(item);
    const previous = this.#target.addItem(item);
    this.#outOfBand = previous === undefined;
    this.#send({ type: 'response.output_item.added', response_id: this.id, output_index: outputIndex, item: { ...item } });
    if (previous !== undefined) this.#send({ type: 'conversation.item.added', previous_item_id: previous, item: { ...item } });
    return { output_index: outputIndex };
  }

  #close(item: Item, outputIndex: number): void {
    item.status = 'completed';
    this.#send({ type: 'response.output_item.done', response_id: this.id, output_index: outputIndex, item: { ...item } });
    if (!this.#outOfBand) this.#send({ type: 'conversation.item.done', previous_item_id: null, item: { ...item } });
  }

  async #message(text: string): Promise<void> {
    const audio = this.#modalities.includes('audio');
    const item: Item = { id: this.#target.ids.next('item'), type: 'message', object: 'realtime.item', status: 'in_progress', role: 'assistant', content: [] };
    const { output_index } = this.#open(item);
    const at = { response_id: this.id, item_id: item.id, output_index, content_index: 0 };
    this.#send({ type: 'response.content_part.added', ...at, part: audio ? { type: 'audio', transcript: '' } : { type: 'text', text: '' } });
    const delay = this.#response.stream.chunkDelayMs;
    if (audio) {
      const chunks = pcmChunks(synthesizeSpeech(text, OUTPUT_RATE), OUTPUT_RATE);
      const words = splitEvenly(text, chunks.length);
      for (let i = 0; i < chunks.length; i++) {
        if (this.#cancelled) return;
        if (words[i]) this.#send({ type: 'response.output_audio_transcript.delta', ...at, delta: words[i] });
        this.#send({ type: 'response.output_audio.delta', ...at, delta: chunks[i].toString('base64') });
        await pause(delay);
      }
      this.#send({ type: 'response.output_audio.done', ...at });
      this.#send({ type: 'response.output_audio_transcript.done', ...at, transcript: text });
      this.#send({ type: 'response.content_part.done', ...at, part: { type: 'audio', transcript: text } });
      item.content = [{ type: 'output_audio', transcript: text }];
    } else {
      for (const delta of chunksOf(text, this.#response)) {
        if (this.#cancelled) return;
        this.#send({ type: 'response.output_text.delta', ...at, delta });
        await pause(delay);
      }
      this.#send({ type: 'response.output_text.done', ...at, text });
      this.#send({ type: 'response.content_part.done', ...at, part: { type: 'text', text } });
      item.content = [{ type: 'output_text', text }];
    }
    this.#close(item, output_index);
  }

  async #functionCall(callId: string, name: string, args: string): Promise<void> {
    const item: Item = { id: this.#target.ids.next('item'), type: 'function_call', object: 'realtime.item', status: 'in_progress', name, call_id: callId, arguments: '' };
    const { output_index } = this.#open(item);
    const at = { response_id: this.id, item_id: item.id, output_index, call_id: callId };
    for (const delta of chunksOf(args, this.#response)) {
      if (this.#cancelled) return;
      this.#send({ type: 'response.function_call_arguments.delta', ...at, delta });
      await pause(this.#response.stream.chunkDelayMs);
    }
    this.#send({ type: 'response.function_call_arguments.done', ...at, name, arguments: args });
    item.arguments = args;
    this.#close(item, output_index);
  }
}
