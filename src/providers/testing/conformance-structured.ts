/**
 * Test-only: the structured-output and reasoning cases (issues 25 and 26) a chat adapter runs
 * through its official SDK, over MSW and the real port, beside the shared conformance cases
 * (conformance.ts). A kit says how its SDK asks for an object of one fixed contract (WEATHER_SCHEMA,
 * or the SDK's own equivalent, e.g. a zod schema for openai's `parse` helpers), for visible
 * reasoning, and what the SDK hands back; the cases are the same for every provider: the scripted
 * object comes back parsed (streaming and not), a generated one fits and repeats for its seed, an
 * object that does not fit is the scenario's error naming step and path, a refusal comes back as
 * the SDK's refusal, and reasoning comes back as the SDK exposes it with its token count.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderId } from '../../scenario/canonical.ts';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { mockLLMHandlers } from '../../transports/msw.ts';
import { startMockLLMServer, type MockLLMServer } from '../../transports/server.ts';

/** The contract every kit asks for: strict-compatible JSON Schema (all properties required, no others). */
export const WEATHER_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    temperature: { type: 'number' },
    conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rain'] },
  },
  required: ['city', 'temperature', 'conditions'],
  additionalProperties: false,
} as const;

/** Its name on the wire, where the wire carries one. */
export const WEATHER_SCHEMA_NAME = 'weather_report';

/** What a structured call returned through the SDK: the parsed value (null when none), and a refusal when the model declined. */
export interface SdkStructured {
  value: unknown;
  refusal: string | null;
}

/** What a reasoning call returned through the SDK. */
export interface SdkReasoning {
  text: string;
  /** The reasoning text the SDK exposes (a summary, a thinking block, `reasoning_content`); null when the API shows none. */
  reasoning: string | null;
  reasoningTokens: number | null;
}

export interface StructuredConformanceKit {
  id: ProviderId;
  /** A model of this API that reasons and shows it (with the request `reasoning` sends). */
  reasoningModel: string;
  /** Does the API send a refusal of its own (OpenAI's `refusal`)? */
  refusals: boolean;
  /** Does the API report reasoning tokens apart (default true)? Ollama, Mistral and Cohere count them in the output only. */
  reasoningTokens?: boolean;
  /** `base`: the real port's URL (undefined over MSW: the SDK's default host). */
  structured(base: string | undefined, prompt: string, stream: boolean): Promise<SdkStructured>;
  reasoning(base: string | undefined, model: string, prompt: string, stream: boolean): Promise<SdkReasoning>;
}

const TRANSPORTS = ['msw', 'port'] as const;
const WEATHER = { city: 'Paris', temperature: 21, conditions: 'sunny' };

/** Does a value fit WEATHER_SCHEMA (checked by hand: the cases must not share the mock's validator)? */
function isWeather(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Object.keys(v).sort().join() === 'city,conditions,temperature' && typeof v.city === 'string' && typeof v.temperature === 'number' && ['sunny', 'cloudy', 'rain'].includes(v.conditions as string);
}

/**
 * Registers the structured-output and reasoning cases for one chat adapter.
 * @example
 *   describeStructuredConformance(openAIChatStructuredKit);
 */
export function describeStructuredConformance(kit: StructuredConformanceKit): void {
  describe.each(TRANSPORTS)(`${kit.id} structured outputs and reasoning over %s`, (transport) => {
    const mock = createMockLLM();
    const msw = setupServer(...mockLLMHandlers(mock));
    const heard: string[] = [];
    mock.onAuthoringError((m) => heard.push(m));
    let server: MockLLMServer | undefined;
    let base: string | undefined;
    beforeAll(async () => {
      if (transport === 'msw') return msw.listen({ onUnhandledFrame: 'error' });
      server = await startMockLLMServer({ mock });
      base = server.url;
    });
    afterAll(async () => {
      if (transport === 'msw') msw.close();
      await server?.close();
    });
    beforeEach(() => {
      mock.reset();
      heard.length = 0;
    });

    it.each([false, true])('returns the scripted object through the SDK (stream %s)', async (stream) => {
      mock.use(scenario('weather').respondWithJson(WEATHER).asStream({ chunkSize: 6 }));
      expect(await kit.structured(base, 'Weather in Paris?', stream)).toEqual({ value: WEATHER, refusal: null });
      expect(mock.requests[0].request?.responseFormat ?? mock.requests[0].request?.forcedTool).toBeDefined();
    });

    it('generates an object that fits the schema, the same for the same seed', async () => {
      mock.use(scenario('gen').respondWithGeneratedJson({ seed: 5 }).times(2));
      const first = await kit.structured(base, 'any', false);
      const second = await kit.structured(base, 'any', true);
      expect(isWeather(first.value)).toBe(true);
      expect(second.value).toEqual(first.value);
    });

    it("answers an object that does not fit with the scenario's error, naming step and path", async () => {
      mock.use(scenario('weather').respondWithJson({ ...WEATHER, temperature: 'warm' }));
      const err = await kit.structured(base, 'x', false).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toContain('weather#0: respond.json.temperature: must be number');
      expect(heard).toHaveLength(1);
    });

    if (kit.refusals) {
      it.each([false, true])("returns a refusal as the SDK's refusal, with no object (stream %s)", async (stream) => {
        mock.use(scenario('no').respondWithRefusal("I can't help with that.").asStream({ chunkSize: 5 }));
        expect(await kit.structured(base, 'x', stream)).toEqual({ value: null, refusal: "I can't help with that." });
      });
    }

    it.each([false, true])('returns the reasoning and its token count as the SDK exposes them (stream %s)', async (stream) => {
      mock.use(scenario('think').respondWithReasoning('The user wants a number.').respondWithText('42').withUsage({ inputTokens: 5, outputTokens: 30, reasoningTokens: 24 }));
      expect(await kit.reasoning(base, kit.reasoningModel, 'A number?', stream)).toEqual({ text: '42', reasoning: 'The user wants a number.', reasoningTokens: kit.reasoningTokens === false ? null : 24 });
      expect(mock.requests[0].reasoning).toEqual({ text: 'The user wants a number.', redacted: false });
    });
  });
}
