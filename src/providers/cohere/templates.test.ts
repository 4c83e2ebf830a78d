import { describe, expect, it } from 'vitest';
import { cohereAdapter } from './index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';
import { canonicalRequest, canonicalResponse } from '../testing/canonical.ts';

const response: CanonicalResponse = canonicalResponse({ model: 'command-a-03-2025', text: 'Hello.', usage: { inputTokens: 5, outputTokens: 3 } });

const request = (over: Partial<CanonicalRequest>): CanonicalRequest => canonicalRequest({ provider: 'cohere', path: '/v2/chat', model: 'command-a-reasoning-08-2025', ...over });

describe('Cohere answers from templates (issue 29)', () => {
  const adapter = cohereAdapter();
  const key = (over: Partial<CanonicalRequest>) => adapter.templateKey!(response, request(over), undefined);

  it('keys chat answers on `thinking` (unset, enabled, disabled render differently on a reasoning model)', () => {
    const keys = [key({}), key({ raw: { thinking: { type: 'enabled' } } }), key({ raw: { thinking: { type: 'disabled' } } })];
    expect(new Set(keys).size).toBe(3);
  });

  it('keys embed answers on the embedding types and the texts the answer echoes', () => {
    const embed = (input: string[], types?: string[]) => key({ provider: 'embeddings', path: '/v2/embed', input, params: types ? { embedding_types: types } : {} });
    expect(embed(['a'])).not.toBe(embed(['b']));
    expect(embed(['a'], ['int8'])).not.toBe(embed(['a']));
    expect(embed(['a'])).toBe(embed(['a']));
  });
});
