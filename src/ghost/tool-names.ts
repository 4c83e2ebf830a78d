// Tool-name adaptation: MCP `server.tool` names ↔ names each provider accepts, one bidirectional map per run.
import { createHash } from 'node:crypto';

export type ProviderName = 'openai' | 'anthropic' | 'gemini' | 'azure-openai' | 'bedrock';

export const MAX_TOOL_NAME = 64;
const HASH_LEN = 8;

interface NameRules {
  /** Characters allowed anywhere. */
  allowed: RegExp;
  /** What the first character must match; a name failing it gets a `_` prefix. */
  first: RegExp;
  /** The whole-name check, for tests and for the final guarantee. */
  valid: RegExp;
}

/** Per provider name rules: OpenAI (Azure too), Anthropic and Bedrock `^[a-zA-Z0-9_-]{1,64}$`; Gemini starts with a letter or `_`, then `[a-zA-Z0-9_.:-]`. */
export const NAME_RULES: Record<ProviderName, NameRules> = {
  openai: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
  anthropic: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
  gemini: { allowed: /[a-zA-Z0-9_.:-]/, first: /[a-zA-Z_]/, valid: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/ },
  'azure-openai': { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
  bedrock: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
};

/** The MCP side of a mapping. */
export interface ToolRef {
  server: string;
  tool: string;
}

export interface NameCollision {
  /** The name both tools would have had. */
  candidate: string;
  /** The tool that kept it, as `server.tool`. */
  keptBy: string;
  /** The tool that got a hashed name instead, and that name. */
  renamed: string;
  assigned: string;
}

/** A short stable hash of the qualified MCP name. */
function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LEN);
}

/** Replaces every disallowed character run with one `_`, after folding accents (é → e). */
function sanitize(raw: string, rules: NameRules): string {
  const folded = raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let out = '';
  for (const ch of folded) {
    if (rules.allowed.test(ch)) out += ch;
    else if (!out.endsWith('_')) out += '_';
  }
  return out;
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_TOOL_NAME - suffix.length - 1)}_${suffix}`;
}

/**
 * The candidate provider name for `server` + `tool`: namespaced as `server_tool`, sanitized,
 * and shortened with a hash of the original when longer than 64 characters.
 * @example
 *   candidateName('files', 'read-file', 'openai') // 'files_read-file'
 */
export function candidateName(server: string, tool: string, provider: ProviderName): string {
  const rules = NAME_RULES[provider];
  let name = `${sanitize(server, rules)}_${sanitize(tool, rules)}`;
  if (!rules.first.test(name[0] ?? '')) name = `_${name}`;
  if (name.length > MAX_TOOL_NAME) name = withSuffix(name, hash(`${server}.${tool}`));
  return name;
}

/**
 * Bidirectional map between MCP tools and provider tool names, built deterministically:
 * names that need no change claim theirs first, then the rest in (server, tool) order; a tool whose
 * name is taken gets a hash suffix instead and the collision is recorded — never a silent override.
 * @example
 * const names = new ToolNameMap('openai', [{ server: 'db', tool: 'list.tables' }]);
 * names.toProvider('db', 'list.tables'); // 'db_list_tables'
 * names.fromProvider('db_list_tables'); // { server: 'db', tool: 'list.tables' }
 */
export class ToolNameMap {
  readonly provider: ProviderName;
  readonly collisions: NameCollision[] = [];
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, ToolRef>();

  constructor(provider: ProviderName, tools: readonly ToolRef[]) {
    this.provider = provider;
    const entries = tools
      .map((ref) => ({ ref, key: `${ref.server}.${ref.tool}`, candidate: candidateName(ref.server, ref.tool, provider) }))
      .sort((a, b) => {
        const ua = a.candidate === `${a.ref.server}_${a.ref.tool}` ? 0 : 1;
        const ub = b.candidate === `${b.ref.server}_${b.ref.tool}` ? 0 : 1;
        return ua - ub || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      });
    for (const { ref, key, candidate } of entries) {
      if (this.forward.has(key)) throw new Error(`tool ${key} is listed twice by server "${ref.server}"`);
      let assigned = candidate;
      if (this.backward.has(assigned)) {
        assigned = withSuffix(candidate, hash(key));
        // A hash clash is astronomically unlikely; a counter keeps the guarantee anyway.
        for (let n = 2; this.backward.has(assigned); n++) assigned = withSuffix(candidate, `${hash(key)}${n}`);
        const kept = this.backward.get(candidate)!;
        this.collisions.push({ candidate, keptBy: `${kept.server}.${kept.tool}`, renamed: key, assigned });
      }
      this.forward.set(key, assigned);
      this.backward.set(assigned, ref);
    }
  }

  /** The provider-facing name of an MCP tool. */
  toProvider(server: string, tool: string): string {
    const name = this.forward.get(`${server}.${tool}`);
    if (name === undefined) throw new Error(`no tool "${tool}" on server "${server}"`);
    return name;
  }

  /** The MCP tool behind a provider-facing name, or undefined for a name the model made up. */
  fromProvider(name: string): ToolRef | undefined {
    return this.backward.get(name);
  }

  /** Every provider-facing name, in map order. */
  names(): string[] {
    return [...this.backward.keys()];
  }

  get size(): number {
    return this.backward.size;
  }
}
