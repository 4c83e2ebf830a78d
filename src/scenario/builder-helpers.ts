import type { Match, MessageMatch, TextMatch } from './schema.ts';
import type { ProviderId } from './canonical.ts';

/**
 * What the builder accepts (RegExps, partial matches) and how it turns that into the plain
 * objects of the JSON format; plus the provider helpers given to `expect()`.
 */

/** A string constraint as the builder accepts it: a RegExp becomes `{ regex, flags }`. */
export type TextMatchLike = TextMatch | RegExp;

/** Message constraints as the builder accepts them. */
export interface MessageMatchLike {
  role?: MessageMatch['role'];
  content?: TextMatchLike;
}

/** Match constraints given to expect(); provider helpers build these. */
export type MatchLike = Omit<Match, 'model' | 'headers' | 'lastMessage' | 'messages'> & {
  model?: TextMatchLike;
  lastMessage?: MessageMatchLike;
  messages?: MessageMatchLike[];
  headers?: Record<string, TextMatchLike>;
};

/** A tool call as respondWithToolCalls accepts it (`arguments` defaults to `{}`). */
export interface ToolCallLike {
  id?: string;
  name: string;
  arguments?: Record<string, unknown>;
}

export interface StreamLike {
  chunkSize?: number;
  chunkDelayMs?: number;
  chunks?: string[] | null;
  disconnectAfterChunks?: number | null;
  /** After this many frames, end the stream with the provider's own error event (with `error`). */
  errorAfterChunks?: number;
  error?: { message: string; type?: string; status?: number };
}

export interface ErrorOptions {
  type?: string;
  code?: string | null;
  headers?: Record<string, string>;
}

export function toTextMatch(value: TextMatchLike): TextMatch {
  if (value instanceof RegExp) return value.flags ? { regex: value.source, flags: value.flags } : { regex: value.source };
  return value;
}

function isMessageMatch(value: unknown): value is MessageMatchLike {
  return typeof value === 'object' && value !== null && !(value instanceof RegExp) && ('role' in value || 'content' in value);
}

export function toMessageMatch(value: TextMatchLike | MessageMatchLike): MessageMatch {
  if (!isMessageMatch(value)) return { content: toTextMatch(value) };
  const out: MessageMatch = {};
  if (value.role !== undefined) out.role = value.role;
  if (value.content !== undefined) out.content = toTextMatch(value.content);
  return out;
}

export function toMatch(like: MatchLike): Match {
  const { model, lastMessage, messages, headers, ...rest } = like;
  const out: Match = { ...rest };
  if (model !== undefined) out.model = toTextMatch(model);
  if (lastMessage !== undefined) out.lastMessage = toMessageMatch(lastMessage);
  if (messages !== undefined) out.messages = messages.map(toMessageMatch);
  if (headers !== undefined) {
    out.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), toTextMatch(v)]));
  }
  return out;
}

function providerMatch(provider: ProviderId, extra: MatchLike = {}): MatchLike {
  return { provider, ...extra };
}

/** Matches OpenAI Chat Completions requests. @example scenario('x').expect(openai()) */
export const openai = (extra?: MatchLike): MatchLike => providerMatch('openai', extra);
/** Matches OpenAI Responses API requests. @example scenario('x').expect(openaiResponses()) */
export const openaiResponses = (extra?: MatchLike): MatchLike => providerMatch('openai-responses', extra);
/** Matches Anthropic Messages requests. @example scenario('x').expect(anthropic()) */
export const anthropic = (extra?: MatchLike): MatchLike => providerMatch('anthropic', extra);
/** Matches Gemini generateContent requests. @example scenario('x').expect(gemini()) */
export const gemini = (extra?: MatchLike): MatchLike => providerMatch('gemini', extra);
/** Matches embeddings requests (OpenAI embeddings, Gemini embedContent). @example scenario('x').expect(embeddings()) */
export const embeddings = (extra?: MatchLike): MatchLike => providerMatch('embeddings', extra);
/** Matches Azure OpenAI Chat Completions and Responses requests. @example scenario('x').expect(azureOpenAI()) */
export const azureOpenAI = (extra?: MatchLike): MatchLike => providerMatch('azure-openai', extra);
/** Matches Gemini requests on Vertex AI (`@google/genai` with `vertexai: true`). @example scenario('x').expect(vertexGemini()) */
export const vertexGemini = (extra?: MatchLike): MatchLike => providerMatch('vertex-gemini', extra);
/** Matches Claude requests on Vertex AI (`@anthropic-ai/vertex-sdk`). @example scenario('x').expect(vertexAnthropic()) */
export const vertexAnthropic = (extra?: MatchLike): MatchLike => providerMatch('vertex-anthropic', extra);
/** Matches Amazon Bedrock runtime requests (Converse, ConverseStream, InvokeModel with Anthropic bodies). @example scenario('x').expect(bedrock({ model: /claude/ })) */
export const bedrock = (extra?: MatchLike): MatchLike => providerMatch('bedrock', extra);
/** Matches Cohere v2 chat requests. @example scenario('x').expect(cohere()) */
export const cohere = (extra?: MatchLike): MatchLike => providerMatch('cohere', extra);
/** Matches Mistral chat requests (`@mistralai/mistralai`). @example scenario('x').expect(mistral()) */
export const mistral = (extra?: MatchLike): MatchLike => providerMatch('mistral', extra);
/** Matches Ollama `/api/chat` and `/api/generate` requests (`ollama`). @example scenario('x').expect(ollama()) */
export const ollama = (extra?: MatchLike): MatchLike => providerMatch('ollama', extra);
/** Matches OpenAI Realtime turns (WebSocket, Azure's included). @example scenario('x').expect(openaiRealtime()).withAudioInput('hi') */
export const openaiRealtime = (extra?: MatchLike): MatchLike => providerMatch('openai-realtime', extra);
/** Matches Gemini Live turns (BidiGenerateContent over WebSocket). @example scenario('x').expect(geminiLive()) */
export const geminiLive = (extra?: MatchLike): MatchLike => providerMatch('gemini-live', extra);
/** Matches any provider; add constraints with the with* methods. @example scenario('x').expect(anyProvider()).withModel(/^gpt/) */
export const anyProvider = (extra: MatchLike = {}): MatchLike => ({ ...extra });
