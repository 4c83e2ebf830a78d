/**
 * Test-only: the error-body readers the conformance kits share, one per error shape. Each asserts
 * the provider's shape and returns the message (and near misses, where the shape carries them).
 */
import { expect } from 'vitest';

/** OpenAI's `{ error: { message, type, param, code } }` (every OpenAI wire API). */
export function openAIErrorReader(_status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
  expect(body.error).toHaveProperty('param');
  expect(body.error).toHaveProperty('code');
  return { message: body.error.message, nearMisses: body.error.details };
}

/** Anthropic's `{ type: 'error', error: { type, message }, request_id }`. */
export function anthropicErrorReader(_status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) }, request_id: expect.stringMatching(/^req_/) });
  return { message: body.error.message, nearMisses: body.error.details };
}

/** Google's `{ error: { code, message, status } }`. */
export function googleErrorReader(status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ error: { code: status, message: expect.any(String), status: expect.stringMatching(/^[A-Z_]+$/) } });
  return { message: body.error.message, nearMisses: body.error.details };
}
