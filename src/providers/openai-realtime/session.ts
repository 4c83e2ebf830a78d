/**
 * One OpenAI Realtime connection: client events in, server events out. Event names and shapes:
 * the openai SDK's RealtimeClientEvent and RealtimeServerEvent unions (resources/realtime/realtime.ts)
 * and https://platform.openai.com/docs/api-reference/realtime-client-events. A mistaken client
 * event is answered with an `error` event naming it; the connection stays open, as with the API.
 */
import type { RealtimeLink, RealtimeOpen, RealtimeSession } from '../realtime-adapter.ts';
import type { CanonicalRequest, CanonicalTool } from '../../scenario/canonical.ts';
import { checkItem, Conversation, toMessages, type Item } from './conversation.ts';
import { ResponseRun } from './render.ts';
import { InputAudio } from './input-audio.ts';
import { defaultSession, errorEvent, inputAudio, invalidType, isObject, mergeSession, missing, RealtimeClientError, RealtimeIds } from './wire.ts';

type Event = Record<string, unknown>;

export const CLIENT_EVENTS = [
  'session.update',
  'input_audio_buffer.append',
  'input_audio_buffer.commit',
  'input_audio_buffer.clear',
  'conversation.item.create',
  'conversation.item.retrieve',
  'conversation.item.truncate',
  'conversation.item.delete',
  'response.create',
  'response.cancel',
  'output_audio_buffer.clear',
] as const;

function toolsOf(list: unknown): CanonicalTool[] {
  if (!Array.isArray(list)) return [];
  return list.filter((t) => isObject(t) && typeof t.name === 'string').map((t) => ({ name: t.name as string, description: t.description as string | undefined, parameters: t.parameters }));
}

export class OpenAIRealtimeSession implements RealtimeSession {
  readonly #link: RealtimeLink;
  readonly #info: RealtimeOpen;
  readonly #ids = new RealtimeIds();
  readonly #conversation = new Conversation();
  readonly #conversationId: string;
  #session: Record<string, unknown>;
  readonly #audio: InputAudio;
  #active: ResponseRun | null = null;
  /** Settles when the active response has sent response.done. */
  #finishing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(info: RealtimeOpen, link: RealtimeLink) {
    this.#info = info;
    this.#link = link;
    const query = info.url.searchParams;
    this.#session = defaultSession(this.#ids, query.get('model') ?? query.get('deployment') ?? 'gpt-realtime');
    this.#conversationId = this.#ids.next('conv');
    this.#audio = new InputAudio({
      ids: this.#ids,
      send: (event) => this.#send(event),
      settings: () => inputAudio(this.#session),
      addItem: (item) => this.#conversation.add(item),
      speaking: () => {
        // interrupt_response (default on): the user talking over the model cancels its response.
        const vad = inputAudio(this.#session).vad;
        if (vad && vad.interrupt_response !== false && this.#active && !this.#active.done) this.#active.cancel('turn_detected');
      },
      committed: () => {
        const vad = inputAudio(this.#session).vad;
        if (vad && vad.create_response !== false) this.#respond(null, {});
      },
    });
    this.#send({ type: 'session.created', session: this.#session });
  }

  #send(event: Event): void {
    if (this.#closed) return;
    const { type, ...rest } = event;
    this.#link.send(JSON.stringify({ type, event_id: rest.event_id ?? this.#ids.next('event'), ...rest }));
  }

  #fail(err: RealtimeClientError, clientEventId: string | null): void {
    this.#send(errorEvent(this.#ids, { type: err.type, code: err.code, message: err.message, param: err.param }, clientEventId));
  }

  receive(data: string): void {
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      this.#fail(new RealtimeClientError(`We could not parse the JSON body of your request: the client event is not valid JSON (${data.length} characters).`, 'invalid_json'), null);
      return;
    }
    const eventId = isObject(event) && typeof event.event_id === 'string' ? event.event_id : null;
    try {
      if (!isObject(event)) throw invalidType('(root)', 'an object', event);
      this.#dispatch(event);
    } catch (err) {
      if (!(err instanceof RealtimeClientError)) throw err;
      this.#fail(err, eventId);
    }
  }

  closed(): void {
    this.#closed = true;
    this.#active?.cancel();
  }

  #dispatch(event: Event): void {
    switch (event.type) {
      case 'session.update':
        this.#session = mergeSession(this.#session, event.session);
        this.#send({ type: 'session.updated', session: this.#session });
        return;
      case 'input_audio_buffer.append':
        this.#audio.append(event.audio);
        return;
      case 'input_audio_buffer.commit':
        this.#audio.commit();
        return;
      case 'input_audio_buffer.clear':
        this.#audio.clear();
        return;
      case 'conversation.item.create': {
        const item = checkItem(event.item, this.#ids);
        const previous = this.#conversation.add(item, event.previous_item_id as string | undefined);
        this.#send({ type: 'conversation.item.added', previous_item_id: previous, item });
        this.#send({ type: 'conversation.item.done', previous_item_id: previous, item });
        return;
      }
      case 'conversation.item.retrieve': {
        const item = this.#item(event.item_id, 'item_retrieve_invalid_item_id');
        this.#send({ type: 'conversation.item.retrieved', item });
        return;
      }
      case 'conversation.item.truncate': {
        const item = this.#item(event.item_id, 'item_truncate_invalid_item_id');
        if (typeof event.audio_end_ms !== 'number') throw event.audio_end_ms === undefined ? missing('audio_end_ms') : invalidType('audio_end_ms', 'an integer', event.audio_end_ms);
        if (item.type !== 'message' || item.role !== 'assistant') {
          throw new RealtimeClientError(`Only assistant messages can be truncated; item '${item.id}' is not one.`, 'item_truncate_invalid_item_id', 'item_id');
        }
        this.#send({ type: 'conversation.item.truncated', item_id: item.id, content_index: event.content_index ?? 0, audio_end_ms: event.audio_end_ms });
        return;
      }
      case 'conversation.item.delete': {
        const item = this.#item(event.item_id, 'item_delete_invalid_item_id');
        this.#conversation.delete(item.id);
        this.#send({ type: 'conversation.item.deleted', item_id: item.id });
        return;
      }
      case 'response.create':
        if (event.response !== undefined && !isObject(event.response)) throw invalidType('response', 'an object', event.response);
        this.#respond(event, (event.response as Event | undefined) ?? {});
        return;
      case 'response.cancel':
        if (!this.#active || this.#active.done || (typeof event.response_id === 'string' && event.response_id !== this.#active.id)) {
          throw new RealtimeClientError('Cancellation failed: no active response found', 'response_cancel_not_active');
        }
        this.#active.cancel();
        return;
      case 'output_audio_buffer.clear':
        // WebRTC/SIP only; over WebSocket the API answers it with an error.
        throw new RealtimeClientError('output_audio_buffer.clear is only supported for WebRTC and SIP connections.', 'invalid_value', 'type');
      default:
        if (event.type === undefined) throw missing('type');
        throw new RealtimeClientError(
          `Invalid value: ${JSON.stringify(event.type)}. Supported values are: ${CLIENT_EVENTS.map((t) => `'${t}'`).join(', ')}.`,
          'invalid_value',
          'type',
        );
    }
  }

  #item(id: unknown, code: string): Item {
    if (id === undefined) throw missing('item_id');
    const item = this.#conversation.find(id);
    if (!item) throw new RealtimeClientError(`Item with item_id ${JSON.stringify(id)} not found.`, code, 'item_id');
    return item;
  }

  /** The turn as the engine sees it: the conversation (or the response's own `input`), tools, model. */
  #request(params: Event, raw: unknown): CanonicalRequest {
    const instructions = typeof params.instructions === 'string' ? params.instructions : ((this.#session.instructions as string) ?? '');
    const items = Array.isArray(params.input) ? params.input.map((item, i) => checkItem(item, this.#ids, `response.input[${i}]`)) : this.#conversation.items;
    const headers = this.#info.headers;
    return {
      provider: 'openai-realtime',
      path: this.#info.path,
      model: this.#session.model as string,
      stream: true,
      messages: toMessages(items, instructions),
      tools: toolsOf(params.tools ?? this.#session.tools),
      headers,
      params: {},
      raw,
    };
  }

  #respond(event: Event | null, params: Event): void {
    const clientEventId = (event?.event_id as string | undefined) ?? null;
    if (this.#active && !this.#active.done) {
      if (this.#active.cancelled && event === null) {
        // A turn the user spoke over the model: its response follows the interrupted one's response.done.
        void this.#finishing.then(() => this.#respondOrFail(params));
        return;
      }
      throw new RealtimeClientError(
        `Conversation already has an active response in progress: ${this.#active.id}. Wait until the response is finished before creating a new one.`,
        'conversation_already_has_active_response',
      );
    }
    const request = this.#request(params, event ?? { type: 'response.create' });
    const selection = this.#link.select(request, { toolCallId: () => this.#ids.call(), responseId: () => undefined });
    if (selection.kind !== 'respond') {
      const e = selection.error;
      this.#send(errorEvent(this.#ids, { type: e.type ?? (e.status >= 500 ? 'server_error' : 'invalid_request_error'), code: e.code ?? null, message: e.message, param: e.param ?? null }, clientEventId));
      return;
    }
    const response = selection.response;
    if (response.inputTranscript !== undefined) this.#audio.transcribed(this.#conversation.items, response.inputTranscript);
    const modalities = Array.isArray(params.output_modalities) ? (params.output_modalities as string[]) : (this.#session.output_modalities as string[]);
    const output = isObject(this.#session.audio) ? (this.#session.audio.output as Record<string, unknown>) : {};
    const run = new ResponseRun(
      { ids: this.#ids, send: (e) => this.#send(e), addItem: (item) => (params.conversation === 'none' ? undefined : this.#conversation.add(item)) },
      response,
      { modalities, audio: { output: { format: output.format, voice: output.voice } }, conversationId: this.#conversationId, metadata: params.metadata },
    );
    this.#active = run;
    this.#finishing = run.run(selection.latencyMs).catch((err: unknown) => this.#link.close(1011, `ghostwire: ${(err as Error).message}`));
  }

  #respondOrFail(params: Event): void {
    try {
      this.#respond(null, params);
    } catch (err) {
      if (!(err instanceof RealtimeClientError)) throw err;
      this.#fail(err, null);
    }
  }
}
