/**
 * Test-only: the official SDK clients wired to a MockLLM over a real transport, either MSW
 * (in-process, the providers' default hosts, unhandled requests are errors: MSW 3 names the option onUnhandledFrame) or the node:http
 * server on 127.0.0.1. Tests run the same body over both with `describe.each(TRANSPORTS)`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Mistral } from '@mistralai/mistralai';
import { Ollama } from 'ollama';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { mockLLMHandlers } from '../../transports/msw.ts';
import type { MockLLM } from '../../transports/mock-llm.ts';
import { startMockLLMServer } from '../../transports/server.ts';

export interface SdkRig {
  openai: OpenAI;
  anthropic: Anthropic;
  google: GoogleGenAI;
  mistral: Mistral;
  ollama: Ollama;
  close(): Promise<void>;
}

export type TransportName = 'msw' | 'port';

/** Clients with retries off (tests that exercise retries make their own). */
function clients(base: { openai?: string; anthropic?: string; google?: string; mistral?: string; ollama?: string }, apiVersion?: string): Omit<SdkRig, 'close'> {
  return {
    openai: new OpenAI({ apiKey: 'sk-test', baseURL: base.openai, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: 'sk-ant-test', baseURL: base.anthropic, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: 'g-test', httpOptions: { ...(base.google ? { baseUrl: base.google } : {}), ...(apiVersion ? { apiVersion } : {}) } }),
    mistral: new Mistral({ apiKey: 'mistral-test', retryConfig: { strategy: 'none' }, ...(base.mistral ? { serverURL: base.mistral } : {}) }),
    // Ollama's default host is the local server it would talk to; MSW answers it in-process.
    ollama: new Ollama({ host: base.ollama ?? 'http://127.0.0.1:11434' }),
  };
}

/**
 * Starts a transport over `mock` and returns SDK clients pointed at it.
 * @example
 *   const rig = await startRig('port', mock);
 *   await rig.anthropic.messages.create({ ... });
 *   await rig.close();
 */
export async function startRig(transport: TransportName, mock: MockLLM, apiVersion?: string): Promise<SdkRig> {
  if (transport === 'msw') {
    const server = setupServer(...mockLLMHandlers(mock));
    server.listen({ onUnhandledFrame: 'error' });
    return { ...clients({}, apiVersion), close: async () => server.close() };
  }
  const server = await startMockLLMServer({ mock });
  return {
    ...clients({ openai: `${server.url}/v1`, anthropic: server.url, google: server.url, mistral: server.url, ollama: server.url }, apiVersion),
    close: () => server.close(),
  };
}

export const TRANSPORTS: readonly TransportName[] = ['msw', 'port'];

/**
 * A rig for the tests of the describe block it is called in: started before them, closed after, the
 * mock reset before each. The returned rig forwards to the started one.
 * @example
 *   describe.each(TRANSPORTS)('over %s', (transport) => {
 *     const mock = createMockLLM();
 *     const rig = useRig(transport, mock);
 *     it('answers', async () => { await rig.openai.chat.completions.create({ ... }); });
 *   });
 */
export function useRig(transport: TransportName, mock: MockLLM): SdkRig {
  let started: SdkRig | undefined;
  beforeAll(async () => {
    started = await startRig(transport, mock);
  });
  afterAll(() => started?.close());
  beforeEach(() => mock.reset());
  return new Proxy({} as SdkRig, {
    get: (_, name: keyof SdkRig) => {
      if (!started) throw new Error('useRig: the rig starts in beforeAll; read it inside a test');
      return started[name];
    },
  });
}
