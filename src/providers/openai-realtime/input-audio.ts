/**
 * The input audio buffer of one connection (`input_audio_buffer.*`). No bytes are kept (common/vad.ts).
 * Server VAD is deterministic: speech followed by the session's `silence_duration_ms` of silence ends
 * the turn (committed, and a response when `create_response` is on), as the API does with
 * `turn_detection.type: server_vad`. What was said is never recognised: a step's `inputTranscript`
 * says it (docs/realtime.md).
 */
import { VoiceActivity } from '../common/vad.ts';
import { invalidType, missing, RealtimeClientError, type RealtimeIds } from './wire.ts';
import type { Item } from './conversation.ts';
/** The API refuses to commit less (`input_audio_buffer_commit_empty`). */
const MIN_COMMIT_MS = 100;

interface Settings {
  rate: number;
  bytesPerSample: number;
  vad: Record<string, unknown> | null;
  transcription: unknown;
}

export interface InputAudioHost {
  ids: RealtimeIds;
  send(event: Record<string, unknown>): void;
  settings(): Settings;
  addItem(item: Item): string | null;
  /** Server VAD heard speech start. */
  speaking(): void;
  /** A turn ended by server VAD was committed. */
  committed(): void;
}

export class InputAudio {
  readonly #host: InputAudioHost;
  readonly #vad = new VoiceActivity();
  #itemId: string | null = null;

  constructor(host: InputAudioHost) {
    this.#host = host;
  }

  #ms(samples: number): number {
    return Math.round((samples * 1000) / this.#host.settings().rate);
  }

  append(audio: unknown): void {
    if (audio === undefined) throw missing('audio');
    if (typeof audio !== 'string') throw invalidType('audio', 'a base64-encoded string', audio);
    const bytes = Buffer.from(audio, 'base64');
    const { bytesPerSample, vad } = this.#host.settings();
    this.#itemId ??= this.#host.ids.next('item');
    const silenceMs = vad ? (typeof vad.silence_duration_ms === 'number' ? vad.silence_duration_ms : 200) : null;
    const change = this.#vad.feed(bytes, bytesPerSample, this.#host.settings().rate, silenceMs);
    if (change.started !== undefined) {
      this.#host.send({ type: 'input_audio_buffer.speech_started', audio_start_ms: this.#ms(change.started), item_id: this.#itemId });
      this.#host.speaking();
    }
    if (change.stopped !== undefined) {
      this.#host.send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: this.#ms(change.stopped), item_id: this.#itemId });
      this.#commit();
      this.#host.committed();
    }
  }

  commit(): void {
    const ms = this.#ms(this.#vad.pending);
    if (ms < MIN_COMMIT_MS) {
      throw new RealtimeClientError(
        `Error committing input audio buffer: buffer too small. Expected at least ${MIN_COMMIT_MS}ms of audio, but buffer only has ${ms.toFixed(2)}ms of audio.`,
        'input_audio_buffer_commit_empty',
      );
    }
    this.#commit();
  }

  #commit(): void {
    const item: Item = { id: this.#itemId ?? this.#host.ids.next('item'), type: 'message', object: 'realtime.item', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript: null }] };
    const previous = this.#host.addItem(item);
    this.#host.send({ type: 'input_audio_buffer.committed', previous_item_id: previous, item_id: item.id });
    this.#host.send({ type: 'conversation.item.added', previous_item_id: previous, item: { ...item, content: [{ type: 'input_audio', transcript: null }] } });
    this.#host.send({ type: 'conversation.item.done', previous_item_id: previous, item: { ...item, content: [{ type: 'input_audio', transcript: null }] } });
    this.#reset();
  }

  clear(): void {
    this.#reset();
    this.#host.send({ type: 'input_audio_buffer.cleared' });
  }

  #reset(): void {
    this.#vad.reset();
    this.#itemId = null;
  }

  /**
   * The scenario said what the user's latest audio says: it becomes that item's transcript (what
   * later turns match on) and, when the session asks for input transcription, an event.
   */
  transcribed(items: readonly Item[], transcript: string): void {
    const item = items.findLast((i) => i.type === 'message' && i.role === 'user');
    const parts = (item?.content as Record<string, unknown>[] | undefined) ?? [];
    const index = parts.findIndex((p) => p.type === 'input_audio' && !p.transcript);
    if (!item || index < 0) return;
    parts[index] = { ...parts[index], transcript };
    if (this.#host.settings().transcription === null) return;
    this.#host.send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: item.id,
      content_index: index,
      transcript,
      usage: { type: 'duration', seconds: Math.max(1, Math.round(transcript.length * 0.06)) },
    });
  }
}
