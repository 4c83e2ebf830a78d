// The transports folder's public face: the core handler, createMockLLM, and the server pieces.
// MSW handlers live in ./msw.ts (subpath `ghostwire/msw`) so importing the root never loads msw.
export { createHandler, createCore, fetchHandler } from './handle.ts';
export type { Handler, HandleOptions, HandlerOptions, Core, RawRequest, RawResponse } from './handle.ts';
export { createMockLLM, MockLLM, scenarioArray } from './mock-llm.ts';
export type { MockLLMOptions, ScenarioLike, ScenarioList, BuildsScenario } from './mock-llm.ts';
export { startMockLLMServer } from './server.ts';
export type { MockLLMServer, MockLLMServerOptions } from './server.ts';
export { SessionRegistry, SessionError, SESSION_PREFIX, DEFAULT_SESSION } from './sessions.ts';
export type { Session } from './sessions.ts';
export { ADMIN_PREFIX, handleAdmin } from './admin.ts';
export { createRouter } from './router.ts';
export { SimulatedDisconnectError } from './sse-body.ts';
export type { SessionFront, SessionFrontRequest } from './session-front.ts';
