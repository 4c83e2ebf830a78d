/**
 * Streaming clients, run as their own process: opens argv[3] connections at once (one socket each) to
 * POST argv[4] (a JSON body) to argv[2], reads every SSE stream to its end and checks it is complete
 * (the content argv[5] in full, then `data: [DONE]`). Prints one JSON line: how many were complete, the
 * first few failures, and each complete stream's [open, end] times (epoch ms) for the bench to count
 * how many were open at once.
 */
import { request } from 'node:http';

const [url, countText, body, expected] = process.argv.slice(2);
const now = () => performance.timeOrigin + performance.now();

function one(): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { authorization: 'Bearer sk-bench', 'content-type': 'application/json' } }, (res) => {
      const opened = now();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', reject);
      res.on('end', () => {
        const content = [...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
        if (res.statusCode !== 200 || content !== expected || !text.endsWith('data: [DONE]\n\n')) {
          reject(new Error(`incomplete stream: status ${res.statusCode}, ${content.length}/${expected.length} content chars`));
        } else resolve([opened, now()]);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const outcomes = await Promise.allSettled(Array.from({ length: Number(countText) }, one));
const intervals = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).message)] : []));
process.stdout.write(JSON.stringify({ complete: intervals.length, failures: failures.slice(0, 5), failed: failures.length, intervals }) + '\n');
