/**
 * Strict replay of Bedrock's minted reasoning values on the real port (`ghostwire serve --goldens`'s
 * front, in process), through @aws-sdk/client-bedrock-runtime (Converse, ConverseStream, InvokeModel,
 * InvokeModelWithResponseStream) and @anthropic-ai/bedrock-sdk (Mantle): two reasoning tool loops
 * recorded against a mock LLM upstream replay with the upstream gone; a loop that alters its signature
 * or passes another recording's gets the live mock's own error, status and words; one altered only
 * once its loop is over replays, as the live mock accepts it.
 */
import { describe, expect, it } from 'vitest';
import { BEDROCK_LOOPS, bedrockLoop, type Tamper } from '../goldens/testing/bedrock-loops.ts';
import { useGoldenPorts } from '../goldens/testing/golden-ports.ts';
import { startMockLLMServer } from '../transports/server.ts';

const { dir: freshDir, port } = useGoldenPorts('gw-port-bedrock-reasoning-');

const ANSWER = 'Sunny in Paris. Rainy in Lyon.';
const SIGNATURE = 'messages.1.content.0: Invalid `signature` in `thinking` block';
const REFUSED: Record<keyof typeof BEDROCK_LOOPS, [number, string]> = {
  converse: [400, `The model returned the following errors: ${SIGNATURE}`],
  'converse-stream': [400, `The model returned the following errors: ${SIGNATURE}`],
  invoke: [400, SIGNATURE],
  'invoke-stream': [400, SIGNATURE],
  mantle: [400, SIGNATURE],
};

/** Records the loops kept intact into the golden `thinks` under a fresh folder, the upstream gone afterwards: the folder and what was minted. */
async function recorded(name: keyof typeof BEDROCK_LOOPS): Promise<{ dir: string; minted: string[] }> {
  const dir = freshDir();
  const upstream = await startMockLLMServer({ scenarios: [bedrockLoop()] });
  const { server } = await port(dir, 'record', upstream.url);
  const { answer, minted } = await BEDROCK_LOOPS[name].agent({ kind: 'keep' }, `${server.url}/s/thinks`);
  expect(answer).toBe(ANSWER);
  await server.close();
  await upstream.close();
  return { dir, minted };
}

describe.each(Object.keys(BEDROCK_LOOPS) as Array<keyof typeof BEDROCK_LOOPS>)('Bedrock %s on the real port: a golden replay checks the reasoning values passed back', (name) => {
  const l = BEDROCK_LOOPS[name];

  it("replays the loops that pass back what they were served (or alter a closed loop's); refuses an altered or foreign signature with the live mock's error", async () => {
    const other = await recorded(name);
    const { dir, minted } = await recorded(name);
    expect(other.minted[0]).not.toBe(minted[0]);
    const { server, lines } = await port(dir, 'replay');
    expect((await l.agent({ kind: 'keep' }, `${server.url}/s/thinks`)).answer).toBe(ANSWER);
    const tampers: Record<string, Tamper> = { alter: { kind: 'alter' }, foreign: { kind: 'swap', value: other.minted[0] }, stale: { kind: 'stale' } };
    for (const [id, tamper] of Object.entries(tampers)) {
      // A session of its own replaying the same golden (the admin API binds it).
      const created = await fetch(`${server.url}/__ghostwire/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ golden: 'thinks', id }) });
      expect(created.status).toBe(201);
      const outcome = await l.agent(tamper, `${server.url}/s/${id}`).then(({ answer }) => answer, (e: unknown) => l.failure(e));
      expect(outcome).toEqual(id === 'stale' ? ANSWER : REFUSED[name]);
    }
    await server.close();
    expect(lines.join('\n')).toMatch(/golden thinks \(.*thinks\.json\): replayed/);
  });
});
