import type { CanonicalError, CanonicalReasoning, CanonicalRequest, CanonicalResponse } from './canonical.ts';

/** Where a step sits: scenario name and the step's index in it. */
export interface StepRef {
  scenario: string;
  index: number;
}

/** A step that came close, and the constraints it missed (`model: expected "gpt-4o", got "gpt-4o-mini"`). */
export interface NearMiss {
  step: StepRef;
  failed: string[];
}

/** The engine's answer to one canonical request. */
export type Selection =
  | { kind: 'respond'; step: StepRef; response: CanonicalResponse; latencyMs: number }
  | {
      kind: 'error';
      step: StepRef | null;
      error: CanonicalError;
      latencyMs: number;
      /** The scenario, not the API, is at fault (a `respond.json` that does not fit the request's schema). */
      authoring?: boolean;
    }
  | { kind: 'no-match'; error: CanonicalError; nearMisses: NearMiss[] };

/** One journal entry: a request as it came in and what answered it. */
export interface JournalEntry {
  requestId: string;
  method: string;
  path: string;
  provider: string | null;
  /** Null when the request could not be parsed. */
  request: CanonicalRequest | null;
  status: number;
  step: StepRef | null;
  nearMisses: NearMiss[];
  startedAt: number;
  durationMs: number;
  /** The request body's length in characters (what a journal's byte limit counts). */
  bodyLength: number;
  /** The reasoning the answer carried (rendered when the request asked for it). */
  reasoning?: CanonicalReasoning;
  /** The provider's protocol rule that refused the request (`anthropic.thinking-block-missing`) and the document it follows. */
  violation?: { rule: string; doc: string };
  /** A scenario that promised an answer the request's schema rules out: the message that names the step and path. */
  authoringError?: string;
  /** Realtime (WebSocket) traffic: the frame this entry journals (turns carry `request` instead). */
  frame?: RealtimeFrame;
}

/** One WebSocket frame of a realtime connection, as the journal keeps it. */
export interface RealtimeFrame {
  /** The connection it belongs to (one id per WebSocket). */
  connection: string;
  /** `client`: the client sent it; `server`: the mock did. */
  direction: 'client' | 'server';
  /** The frame's text. */
  data: string;
}

/**
 * Mints the id of a tool call the scenario gives none, in the shape of the API the request came
 * in on (the transport core asks the request's adapter); `toolName` is the call's tool.
 */
export type MintToolCallId = (toolName: string) => string;

/**
 * Mints ids in the shape of the API a request came in on (the transport core builds one from the
 * request's adapter). The engine knows no shape: it only calls these.
 */
export interface IdMinter {
  /** The id of a tool call the scenario gives none; `toolName` is the call's tool. */
  toolCallId: MintToolCallId;
  /** A response's id; undefined when the API has no shape for it (the engine then mints its own). */
  responseId(): string | undefined;
}

/** The engine contract the transport core relies on. */
export interface ScenarioEngineLike {
  select(request: CanonicalRequest, ids?: IdMinter): Selection;
  /** Optional: false while a scenario turns the providers' protocol rules off (default: on). */
  protocolRules?(): boolean;
}
