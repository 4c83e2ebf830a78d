/**
 * Strict replay of minted reasoning values on the real port (`ghostwire serve --goldens`'s front, in
 * process): a reasoning tool loop recorded through a session against a mock LLM upstream replays with
 * the upstream gone; a loop that alters or drops the signature or encrypted content it was served gets
 * the live mock's own error for it, status and words, through the official SDK; and a request no
 * interaction matches gets the API's own error shape, as in-process.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { LIVE, LOOPS, loop } from '../goldens/testing/reasoning-loops.ts';
import { useGoldenPorts } from '../goldens/testing/golden-ports.ts';
import { startMockLLMServer } from '../transports/server.ts';

const { dir: freshDir, port } = useGoldenPorts('gw-port-reasoning-');

/** Records the loop kept intact into the golden `name` under a fresh folder, the upstream gone afterwards. */
async function recorded(name: keyof typeof LOOPS): Promise<string> {
  const dir = freshDir();
  const upstream = await startMockLLMServer({ scenarios: [loop] });
  const { server } = await port(dir, 'record', upstream.url);
  expect(await LOOPS[name].agent('keep', `${server.url}/s/thinks`)).toBe('Sunny in Paris.');
  await server.close();
  await upstream.close();
  return dir;
}

describe.each(Object.keys(LOOPS) as Array<keyof typeof LOOPS>)('%s on the real port: a golden replay checks the reasoning values passed back', (name) => {
  const l = LOOPS[name];

  it('replays the loop that passes back what it was served; refuses an altered or dropped value with the live mock\'s error', async () => {
    const dir = await recorded(name);
    const { server, lines } = await port(dir, 'replay');
    expect(await l.agent('keep', `${server.url}/s/thinks`)).toBe('Sunny in Paris.');
    for (const tamper of ['alter', 'drop'] as const) {
      // A session of its own replaying the same golden (the admin API binds it).
      const created = await fetch(`${server.url}/__ghostwire/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ golden: 'thinks', id: tamper }) });
      expect(created.status).toBe(201);
      const error = await l.agent(tamper, `${server.url}/s/${tamper}`).then(() => null, (e: unknown) => e);
      expect(l.failure(error)).toEqual(LIVE[name][tamper]);
    }
    await server.close();
    expect(lines.join('\n')).toMatch(/golden thinks \(.*thinks\.json\): replayed/);
  });
});

describe('golden errors on the real port', () => {
  it('a request no interaction matches: the Anthropic SDK throws its APIError with the mismatch, in Anthropic\'s error shape', async () => {
    const dir = await recorded('anthropic');
    const { server } = await port(dir, 'replay');
    const client = new Anthropic({ apiKey: 'sk-ant-port', baseURL: `${server.url}/s/thinks`, maxRetries: 0 });
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Something else' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as InstanceType<typeof Anthropic.APIError>).error as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toMatch(/no recorded interaction matches POST .*\/v1\/messages[\s\S]*Something else/);
  });
});
