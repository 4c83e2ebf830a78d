import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import type { ResolvedGoldensConfig } from '../goldens/config.ts';
import type { SessionOutcome } from '../goldens/session.ts';

/** The reporter's findings for one run; also kept on the reporter for programmatic use. */
export interface GoldensSummary {
  mode: string;
  written: string[];
  updated: string[];
  replayed: string[];
  /** Goldens no test used, among the tests that ran (or whose test or test file no longer exists): obsolete. */
  unused: string[];
  /** Per golden, the recorded interactions its replay never used (the code made fewer calls). */
  unusedInteractions: Array<{ file: string; interactions: string[] }>;
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

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    // Read from the modules at the end (not per test case): `--merge-reports` hands over every shard's here.
    const files = new Map<string, { ran: Set<string>; known: Set<string> }>();
    for (const module of testModules) {
      const file = { ran: new Set<string>(), known: new Set<string>() };
      files.set(relative(this.config.root, module.moduleId).split(sep).join('/'), file);
      for (const testCase of module.children.allTests()) {
        file.known.add(testCase.fullName);
        if (testCase.result().state !== 'skipped' && testCase.result().state !== 'pending') file.ran.add(testCase.fullName);
        const outcome = (testCase.meta() as { ghostwire?: SessionOutcome }).ghostwire;
        if (outcome) this.outcomes.push(outcome);
      }
    }
    this.summary = this.summarize(files);
    const text = renderSummary(this.summary);
    if (text) this.log(text);
  }

  private summarize(files: Map<string, { ran: Set<string>; known: Set<string> }>): GoldensSummary {
    const pick = (action: string): string[] => [...new Set(this.outcomes.filter((o) => o.action === action).map((o) => o.file))].sort();
    const used = new Set(this.outcomes.map((o) => o.file));
    const summary: GoldensSummary = {
      mode: this.config.effectiveMode,
      written: pick('written'),
      updated: pick('updated'),
      replayed: pick('replayed'),
      unused: [],
      unusedInteractions: this.outcomes.filter((o) => o.unusedInteractions?.length).map((o) => ({ file: o.file, interactions: o.unusedInteractions! })),
      expired: [],
      drift: this.outcomes.filter((o) => o.drift.length > 0).map((o) => ({ file: o.file, changes: o.drift })),
    };
    const now = Date.now();
    for (const path of listGoldens(resolve(this.config.root, this.config.goldensDir))) {
      const rel = relative(this.config.root, path).split(sep).join('/');
      const head = readHead(path);
      if (!head) continue;
      // Only what this run can vouch for: a test that ran without using it, a test its (collected) file no
      // longer has, or a test file that is gone. Tests filtered out by -t or in another --shard say nothing.
      const file = files.get(head.testFile);
      const obsolete = file ? file.ran.has(head.testName) || !file.known.has(head.testName) : !existsSync(join(this.config.root, head.testFile));
      if (!used.has(rel) && obsolete) summary.unused.push(rel);
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
  for (const u of s.unusedInteractions) lines.push(`  unused calls ${u.file}: ${u.interactions.join(', ')}  (recorded, never replayed: the code made fewer calls; re-record, or set strict to fail)`);
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

function readHead(file: string): { testFile: string; testName: string; recordedAt: string } | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { test?: { file?: unknown; name?: unknown }; recordedAt?: unknown };
    if (typeof raw.test?.file !== 'string' || typeof raw.test.name !== 'string' || typeof raw.recordedAt !== 'string') return null;
    return { testFile: raw.test.file, testName: raw.test.name, recordedAt: raw.recordedAt };
  } catch {
    return null;
  }
}
