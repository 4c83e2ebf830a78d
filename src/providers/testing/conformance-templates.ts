/**
 * Test-only: the shared case that answers from templates (common/answer-templates.ts) are the bytes a
 * fresh rendering of the same answer gives, in every adapter's format: the same ids, `created` and
 * random draws in, the same status, headers, frames and body out, answer after answer.
 */
import { expect, it } from 'vitest';
import type { ProviderAdapter, RenderedResponse } from '../adapter.ts';
import { AnswerTemplates } from '../common/answer-templates.ts';
import { mintResponseId, mintToolCallId, OPENAI_TOOL_CALL_IDS, RandomBytes } from '../common/ids.ts';
import { SeededRandom } from './canonical.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/** Everything of a rendering that reaches the wire, as text. */
function wire(rendered: RenderedResponse): { status: number; headers: Record<string, string>; frames: string | null; body: string } {
  const stream = rendered.stream;
  const text = (f: string | Uint8Array) => (typeof f === 'string' ? f : Buffer.from(f).toString('latin1'));
  if (!stream) return { status: rendered.status, headers: rendered.headers, frames: null, body: rendered.text ?? JSON.stringify(rendered.json ?? null) };
  const frames = stream.frames.map(text).join('\u0000');
  const body = stream.body ? Buffer.from(stream.body()).toString('latin1') : stream.frames.map(text).join('');
  return { status: rendered.status, headers: rendered.headers, frames, body };
}

/**
 * Registers the case for one adapter: each answer rendered four times with fresh ids (the third and
 * fourth come from its template where the adapter allows templates), each compared with a fresh
 * rendering given the same values.
 * @example
 *   templatesMatchRendering(adapter, cases, canonicalResponse, (stream) => canonicalRequest({ stream }));
 */
export function templatesMatchRendering(
  adapter: ProviderAdapter,
  cases: Array<[string, Partial<CanonicalResponse>]>,
  base: (over: Partial<CanonicalResponse>) => CanonicalResponse,
  request: (stream: boolean) => CanonicalRequest,
): void {
  it.each([false, true])('answers from templates are the bytes a fresh rendering gives (stream %s)', (stream) => {
    const req = request(stream);
    const state = adapter.createState?.();
    const templates = new AnswerTemplates();
    const ids = new RandomBytes();
    let seed = 1;
    let allowed = false;
    for (const [name, over] of cases) {
      for (const minted of [false, true]) {
        for (let round = 0; round < 4; round++) {
          // Fresh per-answer values each time, as the engine gives them: in the API's shapes, or the case's own.
          const shape = adapter.responseIds?.(req);
          const toolShape = adapter.toolCallIds?.(req) ?? OPENAI_TOOL_CALL_IDS;
          const response = base({
            ...over,
            id: minted && shape ? mintResponseId(shape, ids) : (over.id ?? 'abc123'),
            created: 1_700_000_000 + round,
            toolCalls: (over.toolCalls ?? []).map((c) => ({ ...c, id: minted ? mintToolCallId(toolShape, c.name, ids) : c.id })),
          });
          seed += 1;
          allowed ||= adapter.templateKey?.(response, req, state) !== undefined;
          const templated = wire(templates.render(adapter, response, req, state, new SeededRandom(seed)));
          // Without templates both would be renderings, each with its own draws from elsewhere (a request id header).
          if (!allowed) continue;
          const fresh = wire(adapter.render(response, req, state, new SeededRandom(seed)));
          expect(templated, `${name}, ${minted ? 'minted ids' : 'given ids'}, answer ${round + 1}`).toEqual(fresh);
        }
      }
    }
    // Answers an adapter allows templates for came from them (the check above compared templates, not
    // renderings twice); the others never do.
    if (allowed) expect(templates.hits).toBeGreaterThan(0);
    else expect(templates.hits).toBe(0);
  });
}
