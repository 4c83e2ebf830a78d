import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import type { ResolvedGoldensConfig } from '../goldens/config.ts';
import type { SessionOutcome } from '../goldens/session.ts';

/** The reporter's findings for one run; also kept on the reporter for programmatic use. */
export interface GoldensSummary {
  mode: string;
  written: string[];
  updated: string[];
  replayed: string[];
  /** Goldens of test files that ran (or no longer exist) that no test used: obsolete. */
  unused: string[];
  /** Goldens recorded longer ago than `maxAgeDays`. */
  expired: Array<{ file: string; ageDays: number }>;
  /** After a re-record: where behaviour changed. */
  drift: Array<{ file: string; changes: string[] }>;
}

const DAY_MS = 86_400_000;

/**
 * Prints what happened to goldens at the end of a run: written, updated, replayed, unused, expired, drift.
 * Registered by the plugin; nothing to configure.
 * @example new GoldensReporter(config) // vitest.config.reporters.push(...)
 */
export class GoldensReporter implements Reporter {
  readonly config: ResolvedGoldensConfig;
  /** The last run's summary (null before the first run ends). */
  summary: GoldensSummary | null = null;
  private outcomes: SessionOutcome[] = [];
  private log: (text: string) => void = (text) => process.stdout.write(`${text}\n`);

  constructor(config: ResolvedGoldensConfig) {
    this.config = config;
  }

  onInit(vitest: Vitest): void {
    this.log = (text) => vitest.logger.log(text);
  }

  onTestRunStart(): void {
    this.outcomes = [];
  }

  onTestCaseResult(testCase: TestCase): void {
    const outcome = (testCase.meta() as { ghostwire?: SessionOutcome }).ghostwire;
    if (outcome) this.outcomes.push(outcome);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    this.summary = this.summarize(testModules.map((m) => relative(this.config.root, m.moduleId).split(sep).join('/')));
    const text = renderSummary(this.summary);
    if (text) this.log(text);
  }

  private summarize(ranFiles: string[]): GoldensSummary {
    const pick = (action: string): string[] => [...new Set(this.outcomes.filter((o) => o.action === action).map((o) => o.file))].sort();
    const used = new Set(this.outcomes.map((o) => o.file));
    const ran = new Set(ranFiles);
    const summary: GoldensSummary = {
      mode: this.config.effectiveMode,
      written: pick('written'),
      updated: pick('updated'),
      replayed: pick('replayed'),
      unused: [],
      expired: [],
      drift: this.outcomes.filter((o) => o.drift.length > 0).map((o) => ({ file: o.file, changes: o.drift })),
    };
    const now = Date.now();
    for (const file of listGoldens(resolve(this.config.root, this.config.goldensDir))) {
      const rel = relative(this.config.root, file).split(sep).join('/');
      const head = readHead(file);
      if (!head) continue;
      const testFileGone = !existsSync(join(this.config.root, head.testFile));
      if (!used.has(rel) && (ran.has(head.testFile) || testFileGone)) summary.unused.push(rel);
      const ageDays = (now - Date.parse(head.recordedAt)) / DAY_MS;
      if (this.config.maxAgeDays !== null && ageDays > this.config.maxAgeDays) summary.expired.push({ file: rel, ageDays: Math.floor(ageDays) });
    }
    return summary;
  }
}

/** Renders the summary as a few readable lines; empty when there is nothing to say. */
function renderSummary(s: GoldensSummary): string {
  const lines: string[] = [];
  const list = (label: string, files: string[], note = ''): void => {
    if (files.length > 0) lines.push(`  ${label.padEnd(9)} ${String(files.length).padStart(3)}  ${files.join(', ')}${note}`);
  };
  list('written', s.written);
  list('updated', s.updated);
  if (s.replayed.length > 0) lines.push(`  ${'replayed'.padEnd(9)} ${String(s.replayed.length).padStart(3)}`);
  list('unused', s.unused, '  (no test used them: obsolete, delete or re-record)');
  list('expired', s.expired.map((e) => `${e.file} (${e.ageDays}d old)`), '  (re-record with `ghostwire test --record-goldens`)');
  for (const d of s.drift) lines.push(`  drift     ${d.file}\n${d.changes.map((c) => `            ${c}`).join('\n')}`);
  if (lines.length === 0) return '';
  return `\n ghostwire goldens (mode: ${s.mode})\n${lines.join('\n')}\n`;
}

function listGoldens(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function readHead(file: string): { testFile: string; recordedAt: string } | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { test?: { file?: unknown }; recordedAt?: unknown };
    if (typeof raw.test?.file !== 'string' || typeof raw.recordedAt !== 'string') return null;
    return { testFile: raw.test.file, recordedAt: raw.recordedAt };
  } catch {
    return null;
  }
}
