// Shared pieces of the ghost's Bedrock tests: options with static test credentials, and a two-turn tool chain.
import { stdioFixture } from '../../../fixtures/servers/launch.ts';
import { scenario } from '../../scenario/builder.ts';
import { bedrock } from '../../scenario/builder-helpers.ts';
import type { GhostOptions } from '../types.ts';

export const BEDROCK_MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';

/** Ghost options for Bedrock in us-west-2 with any static credentials (the mock checks SigV4 by presence). */
export const BEDROCK_GHOST: GhostOptions = {
  provider: 'bedrock',
  region: 'us-west-2',
  credentials: { accessKeyId: 'AKIDGHOSTTEST', secretAccessKey: 'ghost-secret' },
  model: BEDROCK_MODEL,
  retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 },
  serverConfig: { mcpServers: { db: stdioFixture('sqlite') } },
  userPrompt: 'Describe products.',
};

/** describe_table on the sqlite fixture, then a text answer; 140 + 18 tokens in all. */
export const bedrockChain = (name: string) =>
  scenario(name)
    .expect(bedrock({ model: BEDROCK_MODEL })).then().respondWithToolCalls([{ id: 'b1', name: 'db_describe_table', arguments: { table: 'products' } }]).withUsage({ inputTokens: 50, outputTokens: 11 })
    .expect(bedrock()).withToolResults('db_describe_table').then().respondWithText('products has 3 columns.').withUsage({ inputTokens: 90, outputTokens: 7 });
