/**
 * Audio a realtime mock "speaks": 16-bit little-endian mono PCM whose length follows the text
 * (MS_PER_CHAR a character), so a test can assert on it and a player has something to play. The
 * samples are a quiet 440 Hz tone: the same text always gives the same bytes.
 */

/** Milliseconds of audio per character of text: about 16 characters a second, a calm speaking pace. */
export const MS_PER_CHAR = 60;
/** Milliseconds of audio per delta event (the real APIs send about this much per chunk). */
export const CHUNK_MS = 100;
const AMPLITUDE = 1000;
const TONE_HZ = 440;

/**
 * The number of samples the mock speaks `text` in at `rate` Hz (at least one).
 * @example speechSamples('Hello', 24_000) // 7200 (5 characters × 60 ms)
 */
export function speechSamples(text: string, rate: number): number {
  return Math.max(1, Math.round((Math.max(1, text.length) * MS_PER_CHAR * rate) / 1000));
}

/**
 * `text` as PCM16 audio at `rate` Hz: speechSamples(text, rate) samples, 2 bytes each.
 * @example synthesizeSpeech('Hello', 24_000).length // 14400
 */
export function synthesizeSpeech(text: string, rate: number): Buffer {
  const samples = speechSamples(text, rate);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(AMPLITUDE * Math.sin((2 * Math.PI * TONE_HZ * i) / rate)), i * 2);
  return pcm;
}

/**
 * PCM split into CHUNK_MS pieces (the last one shorter), for one delta event each.
 * @example pcmChunks(synthesizeSpeech('Hello', 24_000), 24_000).length // 3
 */
export function pcmChunks(pcm: Buffer, rate: number): Buffer[] {
  const size = Math.max(2, Math.round((rate * CHUNK_MS) / 1000) * 2);
  const chunks: Buffer[] = [];
  for (let i = 0; i < pcm.length; i += size) chunks.push(pcm.subarray(i, i + size));
  return chunks;
}

/**
 * `text` cut into `count` pieces of near-equal length (a transcript delta per audio chunk); empty pieces dropped.
 * @example splitEvenly('Hello', 2) // ['Hel', 'lo']
 */
export function splitEvenly(text: string, count: number): string[] {
  const chars = [...text];
  const size = Math.ceil(chars.length / Math.max(1, count));
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(''));
  return parts;
}
