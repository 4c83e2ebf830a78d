/**
 * The Ollama adapter (the `ollama` SDK, or any client of a local Ollama): `POST /api/chat` and
 * `/api/generate` (one JSON object, or NDJSON lines: streaming is on unless `stream: false`),
 * `POST /api/embed`, `GET /api/tags`, `POST /api/show` and `GET /api/version`, on
 * `127.0.0.1:11434`/`localhost:11434` or any host by path. Ollama has no credentials.
 */
import type { IncomingRequest, ModelCatalog, ProviderAdapter, RenderedResponse, RouteRequest } from '../adapter.ts';
import { embeddingModel } from '../common/embedding-models.ts';
import { listedModels, MODELS_CREATED, retrievable } from '../common/models.ts';
import { jsonOrStream } from '../common/rendered.ts';
import { parseJsonObject } from '../common/wire-json.ts';
import type { CanonicalError, CanonicalRequest, CanonicalResponse, CanonicalStreamError } from '../../scenario/canonical.ts';
import { parseOllamaChat, parseOllamaEmbed, parseOllamaGenerate } from './parse.ts';
import { ollamaReader } from './reader.ts';
import {
  OLLAMA_JSON,
  ollamaReasons,
  ollamaThinks,
  renderOllamaChat,
  renderOllamaChatLines,
  renderOllamaEmbed,
  renderOllamaError,
  renderOllamaGenerate,
  renderOllamaGenerateLines,
  ollamaStreamErrorLine,
} from './render.ts';

const POSTS = new Set(['/api/chat', '/api/generate', '/api/embed', '/api/embeddings', '/api/show']);
const GETS = new Set(['/api/tags', '/api/version', '/api/ps']);

const modified = new Date(MODELS_CREATED * 1000).toISOString();
const details = (name: string) => ({ parent_model: '', format: 'gguf', family: name.split(/[:.\d-]/)[0] || name, families: null, parameter_size: '8B', quantization_level: 'Q4_K_M' });
const tag = (name: string) => (name.includes(':') ? name : `${name}:latest`);
const modelEntry = (name: string) => ({ name: tag(name), model: tag(name), modified_at: modified, size: 4_920_753_328, digest: '0'.repeat(64), details: details(name) });

function listing(req: IncomingRequest, catalog: ModelCatalog): RenderedResponse | null {
  const json = (body: unknown): RenderedResponse => ({ status: 200, headers: { ...OLLAMA_JSON }, json: body });
  if (req.path === '/api/version') return json({ version: '0.12.0' });
  if (req.path === '/api/tags') return json({ models: listedModels(catalog).map(modelEntry) });
  if (req.path === '/api/ps') return json({ models: [] });
  if (req.path !== '/api/show') return null;
  const body = parseJsonObject(req.bodyText);
  const name = body.model ?? body.name;
  if (typeof name !== 'string' || name === '') return renderOllamaError({ status: 400, message: 'model is required', headers: {} });
  const bare = name.replace(/:latest$/, '');
  if (!retrievable(catalog, bare, ['ollama', 'embeddings']) && !retrievable(catalog, name, ['ollama', 'embeddings'])) {
    return renderOllamaError({ status: 404, message: `model '${name}' not found`, headers: {} });
  }
  return json({ modelfile: '', parameters: '', template: '{{ .Prompt }}', details: details(bare), model_info: {}, capabilities: /embed/.test(name) ? ['embedding'] : ['completion', 'tools'], modified_at: modified });
}

/**
 * The engine's ids of the tool calls a mock rendered, by name and arguments: Ollama's calls carry
 * no ids, so a tool result is matched back to its call this way. Each mock's own (the adapter's state).
 */
type CallIds = Map<string, string>;

const callKey = (name: string, args: unknown) => `${name}\u0000${JSON.stringify(args ?? {})}`;

function remember(calls: CallIds, response: CanonicalResponse): void {
  for (const c of response.toolCalls) {
    calls.set(callKey(c.name, c.arguments), c.id);
    if (calls.size > 10_000) calls.delete(calls.keys().next().value as string);
  }
}

/**
 * Creates the Ollama adapter.
 * @example
 *   ollamaAdapter().framing // 'ndjson'
 */
export function ollamaAdapter(): ProviderAdapter<CallIds> & { id: 'ollama' } {
  return {
    id: 'ollama',
    hosts: ['localhost:11434', '127.0.0.1:11434'],
    credentials: { headers: ['authorization'], query: [] },
    framing: 'ndjson',
    routes: ({ method, path }: RouteRequest) => (method === 'POST' && POSTS.has(path)) || (method === 'GET' && GETS.has(path)),
    /** Ollama's clients (`ollama-js/…`, `ollama-python/…`), or any request under its `/api/` paths. */
    recognizes: (req: RouteRequest) => /^ollama-/.test(req.headers.get('user-agent') ?? '') || req.path.startsWith('/api/'),
    authenticate: () => null,
    listModels: listing,
    createState: (): CallIds => new Map(),
    parse(req: IncomingRequest, calls: CallIds): CanonicalRequest {
      if (req.path === '/api/generate') return parseOllamaGenerate(req);
      if (req.path === '/api/chat') return parseOllamaChat(req, (name, args) => calls.get(callKey(name, args)));
      return parseOllamaEmbed(req, embeddingModel);
    },
    render(response: CanonicalResponse, request: CanonicalRequest, calls: CallIds): RenderedResponse {
      if (request.provider === 'embeddings') return { status: 200, headers: { ...OLLAMA_JSON, ...response.headers }, json: renderOllamaEmbed(response, request) };
      remember(calls, response);
      const generate = request.path === '/api/generate';
      const headers = { ...(request.stream ? { 'content-type': 'application/x-ndjson' } : OLLAMA_JSON), ...response.headers };
      return jsonOrStream(
        response,
        request,
        headers,
        () => (generate ? renderOllamaGenerate(response, request) : renderOllamaChat(response, request)),
        () => (generate ? renderOllamaGenerateLines(response, request) : renderOllamaChatLines(response, request)),
        'ndjson',
      );
    },
    // What rendering reads of the request: the API (chat, generate or embed, by path) and whether it thinks.
    templateKey: (_response: CanonicalResponse, request: CanonicalRequest) => JSON.stringify([request.provider, ollamaThinks(request), ollamaReasons(request)]),
    // A templated tool call answer still leaves its calls' ids for the tool results that answer them.
    templated(response: CanonicalResponse, request: CanonicalRequest, calls: CallIds): void {
      if (request.provider !== 'embeddings') remember(calls, response);
    },
    renderError: (error: CanonicalError): RenderedResponse => renderOllamaError(error),
    renderStreamError: (error: CanonicalStreamError) => [ollamaStreamErrorLine(error)],
    reader: ollamaReader,
  };
}
