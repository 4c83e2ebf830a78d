// The app under test: a small HTTP backend that calls OpenAI, configured only by its environment
// (OPENAI_BASE_URL, OPENAI_API_KEY, PORT), as a Next.js or Express backend is. The one line for goldens:
// it passes the `x-ghostwire-golden` header of the incoming request on to its LLM call, so each
// Playwright test's traffic lands in that test's golden even while tests run in parallel.
import { createServer } from 'node:http';
import OpenAI from 'openai';

const client = new OpenAI({ maxRetries: 0 });

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/api/summary') return void res.writeHead(404).end();
  const golden = req.headers['x-ghostwire-golden'];
  try {
    const completion = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Summarise in five words: ${url.searchParams.get('text') ?? ''}` }] },
      { headers: typeof golden === 'string' ? { 'x-ghostwire-golden': golden } : {} },
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ summary: completion.choices[0].message.content }));
  } catch (error) {
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.message }));
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`app listening on http://127.0.0.1:${server.address().port}`);
});
