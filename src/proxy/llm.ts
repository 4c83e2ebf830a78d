/**
 * The LLM used to rank tools (hybrid and llm search modes). A one-method interface so the proxy
 * does not depend on any one provider; the default speaks the OpenAI chat API through the ghost's
 * OpenAIProvider (the official SDK), so the proxy holds no wire knowledge of its own.
 */
// Imported from the two files, not the ghost's index: the index's types name every provider SDK, and
// the proxy's (and so 'ghostwire/vitest''s) .d.ts files must not need the optional peers a user left out.
import type { LLMProvider } from '../ghost/provider.ts';
import { OpenAIProvider } from '../ghost/provider-openai.ts';

export interface RankingLLM {
  /** Returns the model's text answer. */
  complete(request: { system: string; user: string }): Promise<string>;
}

export interface OpenAIRankingOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
  /** A fetch to use instead of the global one (e.g. a mock LLM's handle). */
  fetch?: typeof fetch;
}

/**
 * A RankingLLM over any OpenAI-compatible chat completions endpoint.
 * @example
 *   const llm = createOpenAIRankingLLM({ model: 'gpt-4o-mini', baseURL: mock.url + '/v1', apiKey: 'test' });
 */
export function createOpenAIRankingLLM(options: OpenAIRankingOptions): RankingLLM {
  const provider = new OpenAIProvider({
    provider: 'openai',
    apiKey: options.apiKey ?? 'none',
    baseURL: options.baseURL,
    fetch: options.fetch,
    requestTimeoutMs: options.timeoutMs ?? 60_000,
    retry: { maxRetries: 1 },
  });
  return rankingLLMFromProvider(provider, options.model);
}

/**
 * A RankingLLM over the ghost's provider layer (OpenAI, Anthropic or Gemini through their official SDKs).
 * @example
 *   const llm = rankingLLMFromProvider(createProvider({ provider: 'anthropic', apiKey, baseURL: mock.url }));
 */
export function rankingLLMFromProvider(provider: LLMProvider, model?: string): RankingLLM {
  return {
    async complete({ system, user }) {
      const answer = await provider.createCompletion([{ role: 'system', content: system }, { role: 'user', content: user }], [], { model, temperature: 0 });
      return answer.text;
    },
  };
}

export interface LLMPick {
  server: string;
  tool: string;
  reason?: string;
}

/**
 * Pulls `[{ server, tool, reason }]` out of a model answer: a JSON array, or an object holding one
 * under any key, possibly inside a code fence or surrounded by prose.
 * @example
 *   parsePicks('Here:\n```json\n[{"server":"fs","tool":"read"}]\n```') // [{ server: 'fs', tool: 'read' }]
 */
export function parsePicks(text: string): LLMPick[] {
  const candidates = [text.trim()];
  const fence = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  if (fence) candidates.push(fence[1]);
  const start = text.search(/[[{]/);
  if (start >= 0) candidates.push(text.slice(start, Math.max(text.lastIndexOf(']'), text.lastIndexOf('}')) + 1));
  for (const c of candidates) {
    let parsed: unknown;
    try { parsed = JSON.parse(c); } catch { continue; }
    const list = Array.isArray(parsed) ? parsed
      : Object.values(parsed as Record<string, unknown>).find((v) => Array.isArray(v));
    if (!Array.isArray(list)) continue;
    return list.flatMap((item): LLMPick[] => {
      if (typeof item === 'string') {
        const [server, ...rest] = item.split('/');
        return rest.length ? [{ server, tool: rest.join('/') }] : [];
      }
      if (!item || typeof item !== 'object') return [];
      const o = item as Record<string, unknown>;
      const tool = o.tool ?? o.tool_name ?? o.name;
      const server = o.server ?? o.server_name;
      return typeof tool === 'string' && typeof server === 'string'
        ? [{ server, tool, reason: typeof o.reason === 'string' ? o.reason : undefined }] : [];
    });
  }
  return [];
}
