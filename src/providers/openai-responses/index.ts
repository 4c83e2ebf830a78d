/**
 * The OpenAI Responses adapter: `POST /v1/responses` (a `response` object, or SSE events), and the
 * stored responses behind it: `previous_response_id` continues a stored conversation,
 * `GET /v1/responses/{id}` returns a stored response, `DELETE` forgets it. Parsing lives in
 * openai-responses-parse.ts, rendering in openai-responses-render.ts; the error shape is OpenAI's,
 * shared with Chat Completions.
 */
import type { DirectAnswer, IncomingRequest, ProviderAdapter, RenderedResponse, RouteRequest, StreamErrorContext } from '../adapter.ts';
import type { CanonicalError, CanonicalMessage, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { openAIAuthError, renderOpenAIError } from '../openai-shared/error.ts';
import { parseResponsesRequest } from './parse.ts';
import { renderResponsesEvents, renderResponsesObject, responsesErrorFrame, responsesEventFrames, responsesTemplateKey } from './render.ts';
import { ResponseStore } from './store.ts';
import { ResponsesState } from './state.ts';
import { responsesReasoningRules } from './rules.ts';
import { responsesMintedReplay } from './minted-replay.ts';
import { jsonOrStream } from '../common/rendered.ts';
import { OPENAI_CREDENTIALS, OPENAI_HOSTS } from '../openai-shared/hosts.ts';
import { openAIResponsesReader } from './reader.ts';
import { decodeSegment } from '../common/models.ts';
import type { Json } from '../common/wire-json.ts';
import { OPENAI_TOOL_CALL_IDS, type RandomBytes, type ResponseIdShape } from '../common/ids.ts';
import { ToolListMemo } from '../common/tool-list-memo.ts';

/** `/v1/responses/{id}` (or without `/v1`, for base URLs that carry it); the id is group 1. */
/** Response ids: `resp_` + 48 hex digits (`resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b` in the API reference). */
const RESPONSE_IDS: ResponseIdShape = { prefix: 'resp_', length: 48, alphabet: 'hex' };

const RESPONSE_PATH = /^(?:\/v1)?\/responses\/([^/]+)$/;

export interface ResponsesAdapterOptions {
  /** How many rendered responses to keep for `previous_response_id` and retrieval (the latest; 1,000 by default). */
  storeLimit?: number;
  /** How many bytes of stored conversations to keep (estimated from their text; 64 MiB by default). */
  storeLimitBytes?: number;
}

/** The conversation through a response: its input (without instructions, which do not carry over) and its output. */
function conversationOf(request: CanonicalRequest, response: CanonicalResponse): CanonicalMessage[] {
  const instructions = typeof (request.raw as Json | null)?.instructions === 'string';
  const input = instructions ? request.messages.slice(1) : request.messages.slice();
  const output: CanonicalMessage = { role: 'assistant', content: response.text };
  if (response.toolCalls.length > 0) output.toolCalls = response.toolCalls;
  return [...input, output];
}

function notFound(id: string): RenderedResponse {
  return renderOpenAIError({
    status: 404,
    message: `Response with id '${id}' not found.`,
    type: 'invalid_request_error',
    param: null,
    code: null,
    headers: {},
  });
}

/**
 * Keeps a rendered response for `previous_response_id` and retrieval, unless the request said
 * `store: false`; and notes its reasoning item (stored or not) with the items that followed it, for
 * the reasoning rules.
 */
function remember(state: ResponsesState, object: Record<string, unknown>, request: CanonicalRequest, response: CanonicalResponse): void {
  const stored = (request.raw as Json | null)?.store !== false;
  const output = (object.output ?? []) as Array<{ id: string; type: string; encrypted_content?: string }>;
  const at = output.findIndex((item) => item.type === 'reasoning');
  if (at >= 0) state.reasoning.add(output[at].id, { followers: output.slice(at + 1).map((item) => item.id), stored });
  // The reasoning item's sealed text is held in the object besides the conversation: it counts too.
  const sealed = at >= 0 ? (output[at].encrypted_content?.length ?? 0) : 0;
  if (stored) state.store.set(object.id as string, { conversation: conversationOf(request, response), object }, sealed);
}

/**
 * A response whose stream failed, as retrieving it answers: `status: failed` with the error's code
 * (ResponseErrorCode: `rate_limit_exceeded` for a 429, else `server_error`) and message.
 */
function failedResponse(object: Record<string, unknown>, error: CanonicalStreamError): Record<string, unknown> {
  const code = error.status === 429 ? 'rate_limit_exceeded' : 'server_error';
  return { ...object, status: 'failed', error: { code, message: error.message }, incomplete_details: null };
}

/**
 * Creates the Responses adapter. Its stored responses are each mock's own state: a ResponseStore
 * (of these limits) per mock, made by `createState`.
 * @example
 *   openAIResponsesAdapter().routes({ method: 'POST', path: '/v1/responses', url, headers }); // true
 */
export function openAIResponsesAdapter(options: ResponsesAdapterOptions = {}): ProviderAdapter<ResponsesState> & { id: 'openai-responses' } {
  // The adapter's own: tool lists are shared by text, whichever mock of the server parses them.
  const tools = new ToolListMemo();
  return {
    id: 'openai-responses',
    hosts: OPENAI_HOSTS,
    credentials: OPENAI_CREDENTIALS,
    framing: 'sse',
    routes({ method, path }: RouteRequest): boolean {
      if (method === 'POST') return path === '/v1/responses' || path === '/responses';
      return (method === 'GET' || method === 'DELETE') && RESPONSE_PATH.test(path);
    },
    authenticate: (req: IncomingRequest) => openAIAuthError(req.headers),
    createState: () => new ResponsesState(new ResponseStore(options.storeLimit, options.storeLimitBytes)),
    mintedReplay: responsesMintedReplay,
    /** `GET /v1/responses/{id}` → the stored response; `DELETE` → `{ id, object: 'response', deleted: true }` (as the spec's example). */
    answerWithoutStep(req: IncomingRequest, { store }: ResponsesState): DirectAnswer | null {
      if (req.method === 'POST') return null;
      const raw = RESPONSE_PATH.exec(req.path)![1];
      const id = decodeSegment(raw) ?? raw;
      const stored = store.get(id);
      if (!stored) return { rendered: notFound(id), request: null };
      if (req.method === 'GET') return { rendered: { status: 200, headers: {}, json: stored.object }, request: null };
      store.delete(id);
      return { rendered: { status: 200, headers: {}, json: { id, object: 'response', deleted: true } }, request: null };
    },
    // `call_id`s as Chat's ids; the `fc_…`/`msg_…` item ids are the renderer's, from the same pool.
    toolCallIds: () => OPENAI_TOOL_CALL_IDS,
    responseIds: () => RESPONSE_IDS,
    parse: (req: IncomingRequest, state: ResponsesState) =>
      parseResponsesRequest(
        req,
        (id) => state.store.get(id)?.conversation,
        (body) => responsesReasoningRules(body, state),
        tools,
      ),
    render(response: CanonicalResponse, request: CanonicalRequest, given: ResponsesState | undefined, random?: RandomBytes): RenderedResponse {
      // A render outside a mock (a conformance check) gets a state of its own.
      const state = given ?? new ResponsesState(new ResponseStore());
      return jsonOrStream(
        response,
        request,
        { ...response.headers },
        () => {
          const object = renderResponsesObject(response, request, random, state.seal);
          remember(state, object, request, response);
          return object;
        },
        () => {
          const events = renderResponsesEvents(response, request, random, state.seal);
          const final = events.at(-1)!.response as Record<string, unknown>;
          // A stream the step fails midway is stored as the API keeps a failed response.
          remember(state, response.stream.error ? failedResponse(final, response.stream.error) : final, request, response);
          return responsesEventFrames(events);
        },
      );
    },
    // The echoed request fields; answers with a reasoning item (sealed by this mock) are rendered each time.
    templateKey: responsesTemplateKey,
    // A templated answer is stored as a rendered one is (its item ids are the draws the template made).
    templated(response: CanonicalResponse, request: CanonicalRequest, state: ResponsesState, random: RandomBytes): void {
      if ((request.raw as Json | null)?.store === false) return;
      remember(state, renderResponsesObject(response, request, random, state.seal), request, response);
    },
    renderError: (error: CanonicalError): RenderedResponse => renderOpenAIError(error),
    // Events are numbered from 0, one a frame: the error event's number is the count sent before it.
    renderStreamError: (error: CanonicalStreamError, { sent }: StreamErrorContext) => [responsesErrorFrame(error, sent)],
    reader: openAIResponsesReader,
  };
}
