/**
 * One Gemini Live connection (BidiGenerateContent): `setup` → `setupComplete`; turns from
 * `clientContent`, `realtimeInput` (audio with automatic activity detection, text, activityEnd,
 * audioStreamEnd) and `toolResponse`; answers as `serverContent` (modelTurn parts, input/output
 * transcriptions, generationComplete, turnComplete with usageMetadata), `toolCall` and `goAway`.
 * Shapes: @google/genai's LiveClientMessage / LiveServerMessage and
 * https://ai.google.dev/api/live. The API has no error message: a bad client message closes the
 * socket with 1007 and a reason, as the API does; a step's `respond.error` closes it too.
 */
import { ID_ALPHABETS, RandomBytes } from '../common/ids.ts';
import { pcmChunks, splitEvenly, synthesizeSpeech } from '../common/pcm.ts';
import { VoiceActivity } from '../common/vad.ts';
import { pause, type RealtimeLink, type RealtimeOpen, type RealtimeSession } from '../realtime-adapter.ts';
import type { CanonicalMessage, CanonicalResponse } from '../../scenario/canonical.ts';
import { contentToMessages, instructionText, isObject, responseToMessage, toolsOf } from './contents.ts';

type Json = Record<string, unknown>;

/** Gemini Live speaks 24 kHz PCM16 and listens at 16 kHz by default (ai.google.dev/gemini-api/docs/live#audio-formats). */
export const OUTPUT_RATE = 24_000;
const INPUT_RATE = 16_000;
/** Silence that ends a spoken turn under automatic activity detection when the setup names none. */
const DEFAULT_SILENCE_MS = 500;
const CLIENT_MESSAGES = ['setup', 'clientContent', 'realtimeInput', 'toolResponse'];
/** Messages one connection's history may hold: memory stays bounded however long a client talks. */
export const MAX_HISTORY = 4096;

/** A close code for an error status (the transport cuts the reason to what a close frame holds). */
function closeFor(status: number, message: string): [number, string] {
  const code = status === 401 || status === 403 ? 1008 : status >= 400 && status < 500 && status !== 429 ? 1007 : 1011;
  return [code, message];
}

export class GeminiLiveSession implements RealtimeSession {
  readonly #link: RealtimeLink;
  readonly #info: RealtimeOpen;
  readonly #random = new RandomBytes();
  readonly #vad = new VoiceActivity();
  #setup: Json | null = null;
  readonly #history: CanonicalMessage[] = [];
  /** The answer being sent, and a flag that stops it (interruption, close). */
  #active: { stop: boolean } | null = null;

  constructor(info: RealtimeOpen, link: RealtimeLink) {
    this.#info = info;
    this.#link = link;
  }

  #send(message: Json): void {
    this.#link.send(JSON.stringify(message));
  }

  #refuse(message: string): void {
    this.#link.close(...closeFor(400, message));
  }

  receive(data: string): void {
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return this.#refuse('Invalid JSON payload received.');
    }
    if (!isObject(message)) return this.#refuse('Invalid JSON payload received. Expected an object.');
    const keys = Object.keys(message);
    const unknown = keys.find((k) => !CLIENT_MESSAGES.includes(k));
    if (unknown) return this.#refuse(`Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
    if (keys.length !== 1) return this.#refuse('Invalid JSON payload received. A message holds exactly one of setup, clientContent, realtimeInput, toolResponse.');
    if (!this.#setup && !message.setup) return this.#refuse('The first message must be setup.');
    if (this.#history.length >= MAX_HISTORY) return this.#link.close(1008, `ghostwire: the conversation reached ${MAX_HISTORY} messages, the mock's limit`);
    if (message.setup) return this.#onSetup(message.setup);
    if (message.clientContent) return this.#onClientContent(message.clientContent);
    if (message.realtimeInput) return this.#onRealtimeInput(message.realtimeInput);
    if (message.toolResponse) return this.#onToolResponse(message.toolResponse);
  }

  closed(): void {
    if (this.#active) this.#active.stop = true;
  }

  #onSetup(setup: unknown): void {
    if (this.#setup) return this.#refuse('setup was already sent on this connection.');
    if (!isObject(setup) || typeof setup.model !== 'string' || setup.model === '') return this.#refuse('setup.model is required (e.g. "models/gemini-live-2.5-flash-preview").');
    this.#setup = setup;
    this.#send({ setupComplete: {} });
  }

  #onClientContent(content: unknown): void {
    if (!isObject(content)) return this.#refuse('Invalid JSON payload received. clientContent must be an object.');
    if (content.turns !== undefined && !Array.isArray(content.turns)) return this.#refuse('Invalid JSON payload received. clientContent.turns must be a list.');
    for (const turn of (content.turns as unknown[] | undefined) ?? []) this.#history.push(...contentToMessages(turn));
    if (content.turnComplete === true) this.#turn();
  }

  #onRealtimeInput(input: unknown): void {
    if (!isObject(input)) return this.#refuse('Invalid JSON payload received. realtimeInput must be an object.');
    const blobs = [...(isObject(input.audio) ? [input.audio] : []), ...(Array.isArray(input.mediaChunks) ? input.mediaChunks.filter(isObject) : [])];
    const config = isObject(this.#setup?.realtimeInputConfig) ? this.#setup.realtimeInputConfig : {};
    const auto = isObject(config.automaticActivityDetection) ? config.automaticActivityDetection : {};
    const automatic = auto.disabled !== true;
    for (const blob of blobs) {
      const mime = String(blob.mimeType ?? '');
      if (!mime.startsWith('audio/pcm')) continue;
      const rate = Number(/rate=(\d+)/.exec(mime)?.[1] ?? INPUT_RATE);
      const silenceMs = automatic ? (typeof auto.silenceDurationMs === 'number' ? auto.silenceDurationMs : DEFAULT_SILENCE_MS) : null;
      const change = this.#vad.feed(Buffer.from(String(blob.data ?? ''), 'base64'), 2, rate, silenceMs);
      // Barge-in: speech while the model talks interrupts it.
      if (change.started !== undefined && this.#active) this.#interrupt();
      if (change.stopped !== undefined) this.#spoken();
    }
    if (typeof input.text === 'string') {
      this.#history.push({ role: 'user', content: input.text });
      this.#turn();
    }
    if (input.activityStart !== undefined && this.#active) this.#interrupt();
    if ((input.activityEnd !== undefined || input.audioStreamEnd === true) && this.#vad.pending > 0) this.#spoken();
  }

  #onToolResponse(response: unknown): void {
    if (!isObject(response) || !Array.isArray(response.functionResponses)) return this.#refuse('Invalid JSON payload received. toolResponse.functionResponses must be a list.');
    for (const r of response.functionResponses) if (isObject(r)) this.#history.push(responseToMessage(r));
    this.#turn();
  }

  /** The user's audio turn ended: a spoken user message (its text comes from the step's inputTranscript). */
  #spoken(): void {
    this.#vad.reset();
    this.#history.push({ role: 'user', content: '', audio: true });
    this.#turn();
  }

  #interrupt(): void {
    this.#active!.stop = true;
    this.#active = null;
    this.#send({ serverContent: { interrupted: true } });
    this.#send({ serverContent: { turnComplete: true } });
  }

  #modalities(): string[] {
    const config = isObject(this.#setup?.generationConfig) ? this.#setup.generationConfig : {};
    return Array.isArray(config.responseModalities) ? config.responseModalities.map(String) : ['AUDIO'];
  }

  #turn(): void {
    const setup = this.#setup!;
    const instructions = instructionText(setup.systemInstruction);
    const selection = this.#link.select(
      {
        provider: 'gemini-live',
        path: this.#info.path,
        model: String(setup.model).replace(/^models\//, ''),
        stream: true,
        // Copies: the journal keeps what matching saw (a transcript assigned later does not rewrite it).
        messages: [...(instructions ? [{ role: 'system' as const, content: instructions }] : []), ...this.#history.map((m) => ({ ...m }))],
        tools: toolsOf(setup.tools),
        headers: this.#info.headers,
        params: {},
        raw: setup,
      },
      { toolCallId: () => this.#random.chars(8, ID_ALPHABETS.lower), responseId: () => undefined },
    );
    if (selection.kind !== 'respond') return this.#link.close(...closeFor(selection.error.status, selection.error.message));
    const run = { stop: false };
    this.#active = run;
    this.#answer(selection.response, selection.latencyMs, run).catch((err: unknown) => this.#link.close(1011, `ghostwire: ${(err as Error).message}`));
  }

  async #answer(r: CanonicalResponse, latencyMs: number, run: { stop: boolean }): Promise<void> {
    const setup = this.#setup!;
    const heard = this.#history.findLast((m) => m.role === 'user');
    if (r.inputTranscript !== undefined && heard?.audio && !heard.content) {
      heard.content = r.inputTranscript;
      if (setup.inputAudioTranscription !== undefined) this.#send({ serverContent: { inputTranscription: { text: r.inputTranscript, finished: true } } });
    }
    await pause(latencyMs);
    const delay = r.stream.chunkDelayMs;
    if (r.text) {
      if (this.#modalities().includes('AUDIO')) {
        const chunks = pcmChunks(synthesizeSpeech(r.text, OUTPUT_RATE), OUTPUT_RATE);
        const words = splitEvenly(r.text, chunks.length);
        for (let i = 0; i < chunks.length; i++) {
          if (run.stop) return;
          this.#send({ serverContent: { modelTurn: { parts: [{ inlineData: { mimeType: `audio/pcm;rate=${OUTPUT_RATE}`, data: chunks[i].toString('base64') } }] } } });
          if (words[i] && setup.outputAudioTranscription !== undefined) this.#send({ serverContent: { outputTranscription: { text: words[i] } } });
          await pause(delay);
        }
      } else {
        const pieces = r.stream.chunks ?? splitBy(r.text, r.stream.chunkSize);
        for (const text of pieces) {
          if (run.stop) return;
          this.#send({ serverContent: { modelTurn: { role: 'model', parts: [{ text }] } } });
          await pause(delay);
        }
      }
    }
    if (run.stop) return;
    this.#history.push({ role: 'assistant', content: r.text, ...(r.toolCalls.length > 0 ? { toolCalls: r.toolCalls } : {}) });
    if (r.toolCalls.length > 0) {
      // The turn goes on once the client answers with toolResponse.
      this.#send({ toolCall: { functionCalls: r.toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.arguments })) } });
      this.#active = null;
      return;
    }
    this.#send({ serverContent: { generationComplete: true } });
    const audio = this.#modalities().includes('AUDIO') && r.text !== '';
    const { inputTokens, outputTokens } = r.usage;
    this.#send({
      serverContent: { turnComplete: true },
      usageMetadata: {
        promptTokenCount: inputTokens,
        responseTokenCount: outputTokens,
        totalTokenCount: inputTokens + outputTokens,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: inputTokens }],
        responseTokensDetails: [{ modality: audio ? 'AUDIO' : 'TEXT', tokenCount: outputTokens }],
      },
    });
    if (r.goAway !== undefined) this.#send({ goAway: { timeLeft: r.goAway } });
    this.#active = null;
  }
}

function splitBy(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
