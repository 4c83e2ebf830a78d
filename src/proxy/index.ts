/**
 * ghostwire/proxy — an MCP proxy with lazy connections, per-tool metrics in SQLite, tool search,
 * fallback suggestions and incremental re-indexing.
 */
export { createProxy, McpProxy, embedderFromConfig, llmFromConfig, type CreateProxyOptions } from './create-proxy.ts';
export { ProxyCore, type ProxyDeps, type RefreshReport, type UnavailableServer } from './proxy.ts';
export {
  parseProxyConfig, loadProxyConfig, proxyConfigSchema, ProxyConfigError, EMBEDDING_MODELS, defaultStorePath,
  type ProxyConfig, type ProxyConfigInput, type ServerConfig,
} from './config.ts';
export { systemClock, backoffMs, ServerCircuitBreaker, CircuitOpenError, type Clock, type BreakerState } from './breaker.ts';
export { Downstream, type ConnectionState, type DownstreamInfo } from './downstream.ts';
export { MetricsRecorder, type CallRecord, type ToolMetrics, type MetricsFilter } from './metrics.ts';
export { ToolCatalog, type CatalogTool, type RefreshSummary } from './catalog.ts';
export { computeSchemaHash, descriptionHash, stableStringify, type ToolDefinition } from './hashing.ts';
export { LexicalIndex, tokenize } from './lexical.ts';
export { VectorIndex, cosine, packVector, unpackVector } from './vectors.ts';
export { createOpenAIEmbedder, EmbeddingStore, type Embedder } from './embeddings.ts';
export { ToolSearch, LEXICAL_NOTE, type SearchAnswer, type SearchHit, type SearchOptions } from './search.ts';
export { FallbackResolver, type FallbackSuggestion } from './fallback.ts';
export { recommendTools, type RecommendAnswer, type Recommendation, type SearchMode } from './recommend.ts';
export { createOpenAIRankingLLM, rankingLLMFromProvider, parsePicks, type RankingLLM } from './llm.ts';
export { createProxyMcpServer, proxyToolList, runProxyTool } from './mcp-server.ts';
export { listenHttp, type HttpListener } from './http.ts';
export { openStore } from './store.ts';
