import { createMockLLM } from './src/transports/mock-llm.ts';
const mock = createMockLLM({ scenarios: [{ name: 'a', steps: [{ respond: { text: 'hi' }, consume: false }] }] });
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const paths = [
  ['/v1/chat/completions', (d: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"metadata":${d}}`],
  ['/v1/chat/completions', (d: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":${d}}]}`],
  ['/v1/chat/completions', (d: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"x","parameters":${d}}}]}`],
  ['/v1/responses', (d: string) => `{"model":"gpt-4o","input":${d}}`],
  ['/v1/messages', (d: string) => `{"model":"claude","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"metadata":${d}}`],
  ['/v1beta/models/gemini-2.0-flash:generateContent', (d: string) => `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"x":${d}}`],
  ['/v1/embeddings', (d: string) => `{"model":"text-embedding-3-small","input":${d}}`],
  ['/v1/messages/count_tokens', (d: string) => `{"model":"claude","messages":[{"role":"user","content":${d}}]}`],
] as const;
for (const n of [5000, 20000, 200000]) for (const [p, f] of paths) {
  const r = await mock.handle(new Request('http://localhost' + p, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-x', 'x-api-key': 'k', 'x-goog-api-key': 'k' }, body: f(deep(n)) }));
  const t = await r.text();
  console.log(n, p, r.status, r.status >= 500 ? t.slice(0, 120) : '');
}
try { JSON.stringify(mock.requests); console.log('stringify ok'); } catch (e) { console.log('stringify', (e as Error).message); }
