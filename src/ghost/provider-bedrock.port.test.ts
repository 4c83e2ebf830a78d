// The ghost over Bedrock Converse on the mock's real port, with the SDK's default HTTP/2 handler.
// Its own file: no MSW in this process, as a user running the mock server out of process would have it.
import { describe, expect, it } from 'vitest';
import { scenario } from '../scenario/builder.ts';
import { bedrock } from '../scenario/builder-helpers.ts';
import { mcpGhost } from './mcp-ghost.ts';
import { BEDROCK_GHOST, BEDROCK_MODEL, bedrockChain } from './testing/bedrock.ts';
import { withMockLLM } from './testing/harness.ts';

describe("provider 'bedrock' on the real port", () => {
  it('runs the same chain on the real port with the default HTTP/2 handler (baseURL becomes the endpoint)', async () => {
    const result = await withMockLLM([bedrockChain('bedrock-port')], async (server) => {
      const run = await mcpGhost({ ...BEDROCK_GHOST, baseURL: server.url });
      expect(server.mock.requests.map((r) => r.request!.path)).toEqual([`/model/${encodeURIComponent(BEDROCK_MODEL)}/converse`, `/model/${encodeURIComponent(BEDROCK_MODEL)}/converse`]);
      return run;
    });
    expect(result.success).toBe(true);
    expect(result.toolChain).toHaveLength(1);
    expect(result.executionMetadata.tokenUsage.totalTokens).toBe(158);
  });

  it('retries a ThrottlingException (waiting what retry-after asks), and reports a ValidationException without retrying', async () => {
    const throttled = scenario('bedrock-throttle')
      .expect(bedrock()).then().respondWithError(429, 'Too many requests, please wait before trying again.')
      .expect(bedrock()).then().respondWithText('done');
    const retried = await withMockLLM([throttled], (server) => mcpGhost({ ...BEDROCK_GHOST, baseURL: server.url }));
    expect(retried.success).toBe(true);
    expect(retried.executionMetadata.llmRetries).toBe(1);

    // The wait Bedrock asks for in `retry-after`, read from the AWS SDK error's raw `$response`
    // (the SDK never calls the Retrier's fetch): 0.2 s, not the 3 s backoff.
    const paced = scenario('bedrock-retry-after')
      .expect(bedrock()).then().respondWithError(429, 'Too many requests, please wait before trying again.', { headers: { 'retry-after': '0.2' } })
      .expect(bedrock()).then().respondWithText('done');
    const slowBackoff = { maxRetries: 2, baseDelayMs: 3_000, maxDelayMs: 3_000 };
    const gaps = await withMockLLM([paced], async (server) => {
      const run = await mcpGhost({ ...BEDROCK_GHOST, baseURL: server.url, retry: slowBackoff });
      expect(run.success).toBe(true);
      expect(run.executionMetadata.llmRetries).toBe(1);
      const [first, second] = server.mock.requests;
      expect([first.status, second.status]).toEqual([429, 200]);
      return second.startedAt - first.startedAt;
    });
    expect(gaps).toBeGreaterThanOrEqual(190);
    expect(gaps).toBeLessThan(2_000);

    const invalid = scenario('bedrock-invalid').expect(bedrock()).then().respondWithError(400, 'The model returned the following errors: bad input');
    const failed = await withMockLLM([invalid], async (server) => {
      const run = await mcpGhost({ ...BEDROCK_GHOST, baseURL: server.url });
      expect(server.mock.requests).toHaveLength(1);
      return run;
    });
    expect(failed.success).toBe(false);
    expect(failed.executionMetadata.stopReason).toBe('llm_error');
    expect(failed.errors.map((e) => e.error).join('\n')).toMatch(/bedrock HTTP 400: The model returned the following errors: bad input/);
  });
});
