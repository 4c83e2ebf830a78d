import { errorMessage, RecordedWires, type MessageView } from '../providers/index.ts';
import type { GoldenFile, Interaction } from './schema.ts';
import { inspectRealtime } from './inspect-realtime.ts';

export interface InspectOptions {
  /** ANSI colours (a terminal); plain text otherwise. */
  color?: boolean;
  /** Shown in the header. */
  file?: string;
}

interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

function painter(color: boolean): Paint {
  const wrap = (code: number, close: number) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[${close}m` : s);
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

/**
 * Renders a golden as a conversation: each provider call with the messages new to it, the answer
 * (its reasoning, text or structured value, refusal, tool calls with arguments), tool results, tokens per call and in total, timings, and where
 * an error happened and where the conversation recovered.
 * @example process.stdout.write(inspectGolden(golden, { color: process.stdout.isTTY }))
 */
export function inspectGolden(golden: GoldenFile, options: InspectOptions = {}): string {
  const p = painter(options.color ?? false);
  const out: string[] = [];
  out.push(p.bold(`golden ${options.file ?? ''}`.trimEnd()));
  out.push(`${p.dim('test     ')} ${golden.test.file} › ${golden.test.name}`);
  out.push(`${p.dim('recorded ')} ${golden.recordedAt} · provider ${golden.provider ?? '-'} · model ${golden.model ?? '-'} · ${golden.interactions.length} call(s)`);
  if (golden.input !== null && golden.input !== undefined) out.push(`${p.dim('input    ')} ${short(golden.input, 300)}`);
  let seen = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let totalMs = 0;
  let failing = false;
  let toolFailing = false;
  const wires = new RecordedWires();
  golden.interactions.forEach((interaction, index) => {
    const { method, url, headers } = interaction.request;
    const reader = wires.of(method, url, headers, interaction.provider).reader;
    const messages = reader?.messages(interaction.request.body) ?? [];
    const fresh = messages.length >= seen ? messages.slice(seen) : messages;
    seen = messages.length + (interaction.summary && interaction.response.status < 400 ? 1 : 0);
    const { response } = interaction;
    totalMs += interaction.durationMs;
    if (interaction.usage) {
      inputTokens += interaction.usage.inputTokens;
      outputTokens += interaction.usage.outputTokens;
    }
    const reasoningTokens = interaction.usage?.reasoningTokens ? ` (${interaction.usage.reasoningTokens} reasoning)` : '';
    const tokens = interaction.usage ? `${interaction.usage.inputTokens} in / ${interaction.usage.outputTokens} out${reasoningTokens}` : 'tokens n/a';
    const first = response.events?.[0]?.offsetMs;
    const shape = response.events ? `streamed, ${response.events.length} events${first !== undefined ? `, first after ${Math.round(first)} ms` : ''}` : 'json';
    const status = response.status >= 400 ? p.red(String(response.status)) : p.green(String(response.status));
    const path = safePath(interaction.request.url);
    out.push('');
    out.push(p.cyan(`── step ${index + 1} · ${interaction.request.method} ${path} · ${status} · ${shape} · ${Math.round(interaction.durationMs)} ms · ${tokens}`));
    for (const m of fresh) {
      out.push(renderMessage(m, p));
      if (m.role !== 'tool') continue;
      if (isToolError(m)) toolFailing = true;
      else if (toolFailing) {
        toolFailing = false;
        out.push(p.yellow('  ↺ recovered: a later tool call succeeded after the tool error above'));
      }
    }
    if (response.status >= 400) {
      failing = true;
      out.push(p.red(`  ✗ error ${response.status}: ${(reader?.errorMessage(response.body) ?? errorMessage(response.body)) ?? short(response.body, 200)}`));
      return;
    }
    if (failing) {
      failing = false;
      out.push(p.yellow('  ↺ recovered: the conversation continues after the error above'));
    }
    if (response.interrupted) out.push(p.red('  ✗ the stream was cut before it completed'));
    out.push(...renderAnswer(interaction, p));
  });
  out.push(...inspectRealtime(golden.realtime ?? []).map((line) => (line.startsWith('──') ? p.cyan(line) : line)));
  out.push('');
  out.push(`${p.bold('total')}    ${golden.interactions.length} call(s) · tokens ${inputTokens} in / ${outputTokens} out (${inputTokens + outputTokens}) · ${Math.round(totalMs)} ms`);
  // What `toMatchGolden` holds the test to, each value in short: a bare list of names said nothing.
  const expected = Object.entries(golden.expected);
  if (expected.length > 0) {
    out.push(`${p.bold('expected outputs')} (toMatchGolden)`);
    for (const [name, value] of expected) out.push(`  ${name}: ${shortJson(value)}`);
  }
  return `${out.join('\n')}\n`;
}

/** A value as one line of JSON, cut to a readable length. */
function shortJson(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A tool result that reports a failure: flagged by the provider, or reading as an error. */
function isToolError(m: MessageView): boolean {
  return m.isError === true || /^\s*(error\b|Error:)|"error"\s*:/i.test(m.text);
}

function renderMessage(m: MessageView, p: Paint): string {
  if (m.role === 'tool') {
    const mark = isToolError(m) ? p.red(' ✗ tool error') : '';
    return `  ${p.yellow('tool result')}${m.answers ? ` ${p.dim(`(${m.answers})`)}` : ''}${mark}: ${short(m.text, 400)}`;
  }
  const calls = (m.toolCalls ?? []).map((c) => `\n    → ${c.name} ${short(c.arguments, 300)}`).join('');
  return `  ${p.bold(`${m.role}:`)} ${short(m.text, 600)}${calls}`;
}

function renderAnswer(interaction: Interaction, p: Paint): string[] {
  const summary = interaction.summary;
  if (!summary) return [`  ${p.dim('response:')} ${short(interaction.response.body, 300)}`];
  const lines: string[] = [];
  // Reasoning comes before the answer, as the model produced it.
  if (summary.reasoning) lines.push(`  ${p.dim('thinking:')} ${p.dim(short(summary.reasoning, 600))}`);
  if (summary.refusal) lines.push(`  ${p.bold(p.yellow('assistant refused:'))} ${summary.refusal}`);
  if (summary.json !== undefined) lines.push(`  ${p.bold(p.green('assistant (JSON):'))} ${short(summary.json, 600)}`);
  else if (summary.text) lines.push(`  ${p.bold(p.green('assistant:'))} ${summary.text}`);
  for (const call of summary.toolCalls) lines.push(`  ${p.bold(p.green('assistant'))} → tool call ${p.bold(call.name)} ${short(call.arguments, 400)}${call.id ? p.dim(`  (${call.id})`) : ''}`);
  if (summary.finishReason) lines.push(p.dim(`  finish: ${summary.finishReason}`));
  const error = summary.error;
  if (error) lines.push(p.red(`  ✗ the stream failed: ${[error.type, error.status].filter((x) => x !== null).join(' ')}${error.type !== null || error.status !== null ? ': ' : ''}${error.message}`));
  return lines;
}

function safePath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

function short(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return '';
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
