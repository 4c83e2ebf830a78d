/**
 * The realtime (WebSocket) APIs, one line each: what the real port's upgrade and MSW's `ws`
 * handlers route connections to.
 */
import type { RealtimeAdapter } from './realtime-adapter.ts';
import { openAIRealtimeAdapter } from './openai-realtime/index.ts';
import { geminiLiveAdapter } from './gemini-live/index.ts';

/**
 * A fresh list of the built-in realtime adapters (they keep no state; each connection is a session).
 * @example realtimeAdapters().find((a) => a.claims('/v1/realtime'))?.id // 'openai-realtime'
 */
export function realtimeAdapters(): RealtimeAdapter[] {
  return [openAIRealtimeAdapter(), geminiLiveAdapter()];
}

/**
 * The adapter for a connection to `path` (session prefix removed), if any.
 * @example realtimeAdapterFor('/v1/realtime')?.id // 'openai-realtime'
 */
export function realtimeAdapterFor(path: string, adapters: readonly RealtimeAdapter[] = realtimeAdapters()): RealtimeAdapter | undefined {
  return adapters.find((a) => a.claims(path));
}

/**
 * The WebSocket URLs the realtime SDKs connect to by default (what MSW intercepts).
 * @example realtimeUrls() // ['wss://api.openai.com/v1/realtime', …]
 */
export function realtimeUrls(adapters: readonly RealtimeAdapter[] = realtimeAdapters()): string[] {
  return adapters.flatMap((a) => a.urls);
}
