/**
 * The conversation of one Realtime connection: its items in order (what `conversation.item.create`,
 * committed audio and responses add), and their reading as canonical messages for the engine.
 * Item shapes: the openai SDK's ConversationItem union (resources/realtime/realtime.ts).
 */
import type { CanonicalMessage } from '../../scenario/canonical.ts';
import { invalidType, invalidValue, isObject, missing, RealtimeClientError, type RealtimeIds } from './wire.ts';

export type Item = Record<string, unknown> & { id: string; type: string };

const ITEM_TYPES = ['message', 'function_call', 'function_call_output'] as const;
const ROLES = ['user', 'assistant', 'system'] as const;
const PART_TYPES: Record<string, readonly string[]> = {
  user: ['input_text', 'input_audio', 'input_image'],
  system: ['input_text'],
  assistant: ['output_text', 'output_audio'],
};

/**
 * A client's item checked and completed the way the API stores it (`id`, `object`, `status`).
 * @example checkItem({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, ids)
 */
export function checkItem(raw: unknown, ids: RealtimeIds, param = 'item'): Item {
  if (raw === undefined) throw missing(param);
  if (!isObject(raw)) throw invalidType(param, 'an object', raw);
  const type = raw.type;
  if (type === undefined) throw missing(`${param}.type`);
  if (!ITEM_TYPES.includes(type as (typeof ITEM_TYPES)[number])) throw invalidValue(`${param}.type`, type, ITEM_TYPES);
  if (raw.id !== undefined && typeof raw.id !== 'string') throw invalidType(`${param}.id`, 'a string', raw.id);
  const id = (raw.id as string | undefined) ?? ids.next('item');
  if (type === 'message') {
    if (raw.role === undefined) throw missing(`${param}.role`);
    if (!ROLES.includes(raw.role as (typeof ROLES)[number])) throw invalidValue(`${param}.role`, raw.role, ROLES);
    if (raw.content === undefined) throw missing(`${param}.content`);
    if (!Array.isArray(raw.content)) throw invalidType(`${param}.content`, 'an array', raw.content);
    raw.content.forEach((part, i) => {
      const where = `${param}.content[${i}]`;
      if (!isObject(part)) throw invalidType(where, 'an object', part);
      const allowed = PART_TYPES[raw.role as string];
      if (!allowed.includes(part.type as string)) throw invalidValue(`${where}.type`, part.type, allowed);
    });
  } else if (type === 'function_call') {
    if (typeof raw.name !== 'string') throw raw.name === undefined ? missing(`${param}.name`) : invalidType(`${param}.name`, 'a string', raw.name);
    if (raw.arguments !== undefined && typeof raw.arguments !== 'string') throw invalidType(`${param}.arguments`, 'a string', raw.arguments);
  } else {
    if (typeof raw.call_id !== 'string') throw raw.call_id === undefined ? missing(`${param}.call_id`) : invalidType(`${param}.call_id`, 'a string', raw.call_id);
    if (typeof raw.output !== 'string') throw raw.output === undefined ? missing(`${param}.output`) : invalidType(`${param}.output`, 'a string', raw.output);
  }
  const item: Item = { ...raw, id, object: 'realtime.item', status: 'completed', type: type as string };
  // Audio bytes are not kept (the API's item events leave them out too): memory follows the text, not the audio.
  if (Array.isArray(item.content)) {
    item.content = (item.content as Record<string, unknown>[]).map((part) => {
      if (part.type !== 'input_audio' && part.type !== 'output_audio') return part;
      const { audio: _audio, ...kept } = part;
      return { ...kept, transcript: kept.transcript ?? null };
    });
  }
  return item;
}

/** Items one connection may hold: memory stays bounded however long a client keeps adding (far past a real context window). */
export const MAX_ITEMS = 4096;

/** The items of one connection, in conversation order. */
export class Conversation {
  readonly items: Item[] = [];

  /** Adds `item` after `previousId` (the end when absent); returns the id it follows (null: first). */
  add(item: Item, previousId?: string): string | null {
    if (this.items.length >= MAX_ITEMS) {
      throw new RealtimeClientError(`ghostwire: this conversation already holds ${MAX_ITEMS} items, the mock's limit; delete some (conversation.item.delete) or open a new connection.`, 'ghostwire_conversation_limit');
    }
    if (this.items.some((i) => i.id === item.id)) {
      throw new RealtimeClientError(`Item with item_id '${item.id}' already exists.`, 'item_create_invalid_item_id', 'item.id');
    }
    if (previousId === undefined || previousId === null) {
      const before = this.items.at(-1)?.id ?? null;
      this.items.push(item);
      return before;
    }
    if (previousId === 'root') {
      this.items.unshift(item);
      return null;
    }
    const at = this.items.findIndex((i) => i.id === previousId);
    if (at < 0) throw new RealtimeClientError(`Previous item with item_id '${previousId}' not found.`, 'item_create_invalid_previous_item_id', 'previous_item_id');
    this.items.splice(at + 1, 0, item);
    return previousId;
  }

  find(id: unknown): Item | undefined {
    return this.items.find((i) => i.id === id);
  }

  delete(id: string): boolean {
    const at = this.items.findIndex((i) => i.id === id);
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }
}

function partText(part: Record<string, unknown>): string {
  const value = part.text ?? part.transcript;
  return typeof value === 'string' ? value : '';
}

/**
 * Items read as canonical messages: text and audio transcripts as content, function calls on the
 * assistant message they follow, outputs as tool messages.
 * @example toMessages(conversation.items, 'Be brief.') // [{ role: 'system', … }, { role: 'user', … }]
 */
export function toMessages(items: readonly Item[], instructions: string): CanonicalMessage[] {
  const messages: CanonicalMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
  for (const item of items) {
    if (item.type === 'message') {
      const parts = (item.content as Record<string, unknown>[]) ?? [];
      const message: CanonicalMessage = { role: item.role as CanonicalMessage['role'], content: parts.map(partText).filter(Boolean).join('\n') };
      if (item.role === 'user' && parts.some((p) => p.type === 'input_audio')) message.audio = true;
      messages.push(message);
    } else if (item.type === 'function_call') {
      let args: unknown = item.arguments ?? '';
      try {
        args = JSON.parse(args as string);
      } catch {
        // Kept as sent: the canonical form keeps unparsable arguments as the string.
      }
      const call = { id: (item.call_id as string | undefined) ?? item.id, name: item.name as string, arguments: args };
      const last = messages.at(-1);
      if (last?.role === 'assistant') (last.toolCalls ??= []).push(call);
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', content: item.output as string, toolCallId: item.call_id as string });
    }
  }
  return messages;
}
