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

const ANTHROPIC_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 404: 'not_found_error' };

/** Anthropic's `{ type: 'error', error: { type, message }, request_id }`, with the type the status goes with. */
export function anthropicErrorReader(status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ type: 'error', error: { type: ANTHROPIC_TYPE[status] ?? expect.any(String), message: expect.any(String) }, request_id: expect.stringMatching(/^req_/) });
  return { message: body.error.message, nearMisses: body.error.details };
}

const GOOGLE_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' };

/** Google's `{ error: { code, message, status } }`, with the status name the code goes with. */
export function googleErrorReader(status: number, body: any): { message: string; nearMisses?: unknown } {
  expect(body).toMatchObject({ error: { code: status, message: expect.any(String), status: GOOGLE_STATUS[status] ?? expect.stringMatching(/^[A-Z_]+$/) } });
  return { message: body.error.message, nearMisses: body.error.details };
}
