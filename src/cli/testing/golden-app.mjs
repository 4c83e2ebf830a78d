// A small app under test, run as a child process: a tool-calling agent on the official openai and
// @anthropic-ai/sdk SDKs (streaming and not), configured only by the environment (OPENAI_BASE_URL,
// ANTHROPIC_BASE_URL, keys), as an app server or a CLI is. It prints what it answered and, to let a
// test compare replay with recording byte for byte, every response body exactly as the SDKs received it.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

const bodies = [];
/** The SDKs' fetch, keeping each response's bytes (the SDK then parses the same bytes). */
async function keepingFetch(url, init) {
  const response = await fetch(url, init);
  const bytes = new Uint8Array(await response.arrayBuffer());
  bodies.push({ path: new URL(String(url)).pathname, status: response.status, base64: Buffer.from(bytes).toString('base64') });
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const question = process.argv[2] ?? 'What is the weather in Paris?';
const weather = (city) => JSON.stringify({ city, sky: 'sunny', celsius: 21 });

async function openaiAgent() {
  const client = new OpenAI({ fetch: keepingFetch, maxRetries: 0 });
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
  const messages = [{ role: 'user', content: question }];
  const calls = [];
  for (let turn = 0; turn < 4; turn++) {
    const completion = await client.chat.completions.stream({ model: 'gpt-4o', messages, tools }).finalChatCompletion();
    const message = completion.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) break;
    for (const call of message.tool_calls) {
      const args = JSON.parse(call.function.arguments);
      calls.push({ name: call.function.name, args });
      messages.push({ role: 'tool', tool_call_id: call.id, content: weather(args.city) });
    }
  }
  const plain = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }] });
  return { calls, answer: messages.at(-1).content, plain: plain.choices[0].message.content };
}

async function anthropicAgent() {
  const client = new Anthropic({ fetch: keepingFetch, maxRetries: 0 });
  const tools = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
  const messages = [{ role: 'user', content: question }];
  const calls = [];
  let answer = null;
  for (let turn = 0; turn < 4; turn++) {
    const message = await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 256, messages, tools }).finalMessage();
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) {
      answer = message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
      break;
    }
    calls.push(...uses.map((u) => ({ name: u.name, args: u.input })));
    messages.push({ role: 'user', content: uses.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content: weather(u.input.city) })) });
  }
  return { calls, answer };
}

try {
  const result = { openai: await openaiAgent(), anthropic: await anthropicAgent(), bodies };
  process.stdout.write(JSON.stringify(result));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: { status: error.status ?? null, message: error.message }, bodies }));
  process.exitCode = 1;
}
