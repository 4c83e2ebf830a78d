import { describe, expect, it } from 'vitest';
import { scenario } from '../../scenario/builder.ts';
import { createMockLLM } from '../../transports/mock-llm.ts';
import { TRANSPORTS, useRig } from '../testing/sdk-rig.ts';

// A step's scripted reasoning on an Ollama request with `think: false` (the model does not think):
// `eval_count` without it. `think` set, or left out on a thinking model (which still thinks), counts
// it. Through the `ollama` SDK, chat and generate, streamed and not.

const REASONING = 'Weigh what the user asked, then the shortest friendly answer that fits it.';

describe.each(TRANSPORTS)('Ollama: reasoning tokens with think: false, over %s', (transport) => {
  const mock = createMockLLM();
  const rig = useRig(transport, mock);

  async function evalCount(step: ReturnType<typeof scenario>, think: boolean | undefined, stream: boolean): Promise<number> {
    mock.reset();
    mock.use(step);
    const extra = think === undefined ? {} : { think };
    if (!stream) return (await rig.ollama.chat({ model: 'qwen3', messages: [{ role: 'user', content: 'hi' }], ...extra, stream: false })).eval_count;
    let count = 0;
    for await (const part of await rig.ollama.generate({ model: 'qwen3', prompt: 'hi', ...extra, stream: true })) if (part.done) count = part.eval_count;
    return count;
  }
  const plain = () => scenario('plain').respondWithText('Hello there!');
  const thinking = () => scenario('think').respondWithReasoning(REASONING).respondWithText('Hello there!');

  it.each([false, true])('counts none with think: false; counts it with think on or left out (stream: %s)', async (stream) => {
    const base = await evalCount(plain(), undefined, stream);
    expect(await evalCount(thinking(), false, stream)).toBe(base);
    expect(await evalCount(thinking(), true, stream)).toBeGreaterThan(base);
    expect(await evalCount(thinking(), undefined, stream)).toBeGreaterThan(base);
  });
});
