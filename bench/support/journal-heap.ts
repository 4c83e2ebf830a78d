/**
 * What a journal entry keeps alive, run as its own process with --expose-gc: a real server here,
 * autocannon in a child process sending N requests of one body shape at a time, and the server
 * heap's growth after full collections divided by the entries kept, beside what the journal counts
 * for them. Prints one JSON line per shape. Usage: node --expose-gc journal-heap.ts <N>.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMockLLMServer } from '../../src/transports/server.ts';

const N = Number(process.argv[2] ?? 2000);
const load = fileURLToPath(new URL('./load.ts', import.meta.url));
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');
const gc = () => {
  for (let i = 0; i < 4; i++) collect();
};
const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ['the', 'weather', 'in', 'Paris', 'is', 'mild', 'today', 'and', 'tomorrow'][(i * 7 + seed) % 9]).join(' ');
const tool = (name: string) => ({
  type: 'function',
  function: { name, description: `Looks up ${name} for a place and a date.`, parameters: { type: 'object', properties: { city: { type: 'string' }, date: { type: 'string', format: 'date' }, units: { type: 'string', enum: ['metric', 'imperial'] } }, required: ['city'] } },
});
const call = (i: number) => [
  { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}abcdefghijklmnop`, type: 'function', function: { name: 'weather', arguments: JSON.stringify({ city: 'Paris', date: `2025-01-0${i % 9}`, units: 'metric' }) } }] },
  { role: 'tool', tool_call_id: `call_${i}abcdefghijklmnop`, content: JSON.stringify({ temp: 20 + i, sky: 'clear', wind: { speed: 3, dir: 'NW' } }) },
];
/** Request bodies of the shapes a journal holds: the bench's one line, a chat with tools, a tool loop, long prose. */
const shapes: Record<string, object> = {
  'one-line chat': { model: 'gpt-4o', stream: false, messages: [{ role: 'user', content: 'bench' }] },
  'ten-turn chat, two tools': { model: 'gpt-4o', temperature: 0.2, messages: [{ role: 'system', content: words(60, 1) }, ...Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: words(40, i) }))], tools: [tool('weather'), tool('forecast')] },
  'tool loop, ten tools': { model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }, ...Array.from({ length: 10 }, (_, i) => call(i)).flat()], tools: Array.from({ length: 10 }, (_, i) => tool(`tool_${i}`)) },
  'long prose': { model: 'gpt-4o', messages: [{ role: 'user', content: words(6000, 3) }] },
};

function send(url: string, body: string, amount: number): Promise<void> {
  const options = { url: `${url}/v1/chat/completions`, method: 'POST', headers: { authorization: 'Bearer sk-bench', 'content-type': 'application/json' }, body, connections: 16, amount };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [load, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.once('exit', () => ((JSON.parse(out || '{}') as { ok?: number }).ok === amount ? resolve() : reject(new Error(`load: ${out}`))));
  });
}

const server = await startMockLLMServer({ scenarios: [{ name: 'heap', steps: [{ respond: { text: 'A short answer.' }, consume: false }] }], journalLimit: 1_000_000, journalBytes: 2 ** 40 });
try {
  for (const [shape, value] of Object.entries(shapes)) {
    const body = JSON.stringify(value);
    await send(server.url, body, 300); // code paths warm, then an empty journal
    server.mock.reset();
    gc();
    const before = process.memoryUsage().heapUsed;
    await send(server.url, body, N);
    gc();
    const heap = (process.memoryUsage().heapUsed - before) / server.mock.requests.length;
    const counted = server.mock.journalBytes / server.mock.requests.length;
    process.stdout.write(JSON.stringify({ shape, bodyLength: body.length, entries: server.mock.requests.length, heap, counted }) + '\n');
    server.mock.reset();
  }
} finally {
  await server.close();
}
