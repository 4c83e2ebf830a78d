/**
 * OpenAI Realtime (GA) over WebSocket: `wss://api.openai.com/v1/realtime?model=…` (the openai SDK's
 * OpenAIRealtimeWS and OpenAIRealtimeWebSocket) and Azure's `{endpoint}/openai/v1/realtime` and
 * preview `{endpoint}/openai/realtime?deployment=…`.
 */
import type { RealtimeAdapter } from '../realtime-adapter.ts';
import { OpenAIRealtimeSession } from './session.ts';
import { errorEvent, RealtimeIds } from './wire.ts';

const PATHS = new Set(['/v1/realtime', '/openai/v1/realtime', '/openai/realtime']);

/**
 * The OpenAI Realtime adapter.
 * @example openAIRealtimeAdapter().claims('/v1/realtime') // true
 */
export function openAIRealtimeAdapter(): RealtimeAdapter {
  return {
    id: 'openai-realtime',
    urls: ['wss://api.openai.com/v1/realtime'],
    claims: (path) => PATHS.has(path.replace(/\/+$/, '')),
    open: (info, link) => new OpenAIRealtimeSession(info, link),
    // The `error` server event (RealtimeErrorEvent), which the SDK's clients emit as their 'error'.
    renderError: (error) => [JSON.stringify(errorEvent(new RealtimeIds(), { type: 'invalid_request_error', code: error.code, message: error.message, param: null }, error.clientEventId))],
  };
}
