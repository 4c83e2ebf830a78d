/**
 * A mid-stream error spliced into a rendered stream: the first `errorAfterChunks` frames, then the
 * adapter's own error frames, then the end. One place for every adapter, so pacing, goldens and the
 * real port see the error frame as one more frame.
 */
import type { ProviderAdapter, RenderedResponse } from '../adapter.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../scenario/canonical.ts';

/**
 * The rendered answer with the step's stream error in place, or as it was when there is none (or
 * the answer is not a stream). An adapter that renders no stream errors answers a stream that
 * cannot honour the step with a 500 in its own shape, naming the option.
 * @example
 *   const rendered = withStreamError(adapter, adapter.render(response, request, state), response, request);
 */
export function withStreamError(adapter: ProviderAdapter, rendered: RenderedResponse, response: CanonicalResponse, request: CanonicalRequest): RenderedResponse {
  const { errorAfterChunks, error } = response.stream;
  const stream = rendered.stream;
  if (errorAfterChunks === undefined || error === undefined || !stream) return rendered;
  if (!adapter.renderStreamError) {
    return adapter.renderError({ status: 500, message: `ghostwire: the ${adapter.id} API has no mid-stream error event (respond.stream.errorAfterChunks)`, headers: {} }, request);
  }
  const sent = Math.min(errorAfterChunks, stream.frames.length);
  const frames = [...stream.frames.slice(0, sent), ...adapter.renderStreamError(error, { request, response, sent })];
  return { ...rendered, stream: { framing: stream.framing, frames, timing: stream.timing } };
}
