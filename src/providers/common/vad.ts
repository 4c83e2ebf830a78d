/**
 * Deterministic voice activity detection for realtime mocks: a PCM16 sample louder than
 * SILENCE_LEVEL is speech; speech followed by `silenceMs` of quieter samples ends it. No audio is
 * kept, only counts, so memory stays flat however long a client streams.
 */

/** Absolute sample value below which PCM16 input counts as silence (about -50 dBFS). */
export const SILENCE_LEVEL = 100;

/** What one chunk of audio changed: speech started or stopped at a sample offset (since the detector's start). */
export interface VoiceChange {
  started?: number;
  stopped?: number;
}

/** One detector per audio stream (a connection's input). */
export class VoiceActivity {
  /** Samples seen since the start, and in the current (uncommitted) turn. */
  total = 0;
  pending = 0;
  #speechStart: number | null = null;
  #trailingSilence = 0;

  get speaking(): boolean {
    return this.#speechStart !== null;
  }

  /**
   * Feeds PCM16 little-endian bytes (or 8-bit G.711 ones: `bytesPerSample` 1, always counted as speech).
   * @example vad.feed(chunk, 2, 24_000, 200) // { started: 0 } on the first loud sample
   */
  feed(bytes: Buffer, bytesPerSample: number, rate: number, silenceMs: number | null): VoiceChange {
    const change: VoiceChange = {};
    const count = Math.floor(bytes.length / bytesPerSample);
    for (let i = 0; i < count; i++) {
      const loud = bytesPerSample !== 2 || Math.abs(bytes.readInt16LE(i * 2)) > SILENCE_LEVEL;
      if (loud) {
        if (this.#speechStart === null && silenceMs !== null) change.started = this.#speechStart = this.total + i;
        this.#trailingSilence = 0;
      } else {
        this.#trailingSilence += 1;
      }
    }
    this.total += count;
    this.pending += count;
    if (silenceMs !== null && this.#speechStart !== null && (this.#trailingSilence * 1000) / rate >= silenceMs) {
      change.stopped = this.total - this.#trailingSilence;
    }
    return change;
  }

  /** The turn was committed or cleared: a new one starts. */
  reset(): void {
    this.pending = 0;
    this.#speechStart = null;
    this.#trailingSilence = 0;
  }
}
