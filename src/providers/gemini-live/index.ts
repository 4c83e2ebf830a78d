/**
 * Gemini Live over WebSocket: `wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.{v1alpha|v1beta}.GenerativeService.BidiGenerateContent`
 * (@google/genai's `ai.live.connect`; the SDK joins its base URL and that path with a double slash,
 * which the API accepts, and so does this).
 */
import type { RealtimeAdapter } from '../realtime-adapter.ts';
import { GeminiLiveSession } from './session.ts';

const PATH = /^\/ws\/google\.ai\.generativelanguage\.v1(alpha|beta)?\.GenerativeService\.BidiGenerateContent(Constrained)?$/;

/**
 * The Gemini Live adapter.
 * @example geminiLiveAdapter().claims('/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent') // true
 */
export function geminiLiveAdapter(): RealtimeAdapter {
  return {
    id: 'gemini-live',
    urls: ['wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent'],
    claims: (path) => PATH.test(path.replace(/\/{2,}/g, '/')),
    open: (info, link) => new GeminiLiveSession(info, link),
    // No renderError: the Live API has no error message; @google/genai's live client hands the close
    // (code and reason) to `callbacks.onclose`, so a refusal's words ride in the close reason.
  };
}
