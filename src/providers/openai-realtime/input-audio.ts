/**
 * The input audio buffer of one connection (`input_audio_buffer.*`). No bytes are kept: only how
 * much audio came and where speech starts and stops, so memory stays flat however long a client
 * streams. Server VAD is deterministic: a sample louder than SILENCE_LEVEL is speech; speech
 * followed by the session's `silence_duration_ms` of quieter samples ends the turn (committed,
 * and a response when `create_response` is on), as the API does with `turn_detection.type: server_vad`.
 * What was said is never recognised: a step's `inputTranscript` says it (docs/scenario-format.md).
 */
import { invalidType, missing, RealtimeClientError, type RealtimeIds } from './wire.ts';
import type { Item } from './conversation.ts';

/** Absolute sample value below which PCM16 input counts as silence (about -50 dBFS). */
export const SILENCE_LEVEL = 100;
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
  /** A turn ended by server VAD was committed. */
  committed(): void;
}

export class InputAudio {
  readonly #host: InputAudioHost;
  /** Samples in the buffer now, and appended since the connection opened (for `audio_*_ms`). */
  #samples = 0;
  #sessionSamples = 0;
  #speechStart: number | null = null;
  #trailingSilence = 0;
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
    const count = Math.floor(bytes.length / bytesPerSample);
    this.#itemId ??= this.#host.ids.next('item');
    for (let i = 0; i < count; i++) {
      const level = bytesPerSample === 2 ? Math.abs(bytes.readInt16LE(i * 2)) : SILENCE_LEVEL + 1;
      if (level > SILENCE_LEVEL) {
        if (this.#speechStart === null && vad) {
          this.#speechStart = this.#sessionSamples + i;
          this.#host.send({ type: 'input_audio_buffer.speech_started', audio_start_ms: this.#ms(this.#speechStart), item_id: this.#itemId });
        }
        this.#trailingSilence = 0;
      } else {
        this.#trailingSilence += 1;
      }
    }
    this.#samples += count;
    this.#sessionSamples += count;
    const silenceMs = typeof vad?.silence_duration_ms === 'number' ? vad.silence_duration_ms : 200;
    if (vad && this.#speechStart !== null && this.#ms(this.#trailingSilence) >= silenceMs) {
      this.#host.send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: this.#ms(this.#sessionSamples - this.#trailingSilence), item_id: this.#itemId });
      this.#commit();
      this.#host.committed();
    }
  }

  commit(): void {
    const ms = this.#ms(this.#samples);
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
    this.#samples = 0;
    this.#speechStart = null;
    this.#trailingSilence = 0;
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
