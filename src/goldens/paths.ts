import { join, relative, resolve, sep } from 'node:path';

/**
 * Turns a test name into a file-name-safe, readable slug.
 * @example
 *   slugify('Weather > answers in °C') // 'weather-answers-in-c'
 */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, 120) || 'unnamed';
}

/**
 * The golden path for a test: `<goldensDir>/<test file without .test.ts>/<slug of the full test name>.json`.
 * Stable across runs and mappable back to its test.
 * @example goldenPathFor('/repo', 'goldens', '/repo/src/a.test.ts', 'agent > answers') // '/repo/goldens/src/a/agent-answers.json'
 */
export function goldenPathFor(root: string, goldensDir: string, testFile: string, testName: string): string {
  const rel = relative(root, testFile).split(sep).join('/');
  const stem = rel.replace(/\.(test|spec)\.[cm]?[jt]sx?$/, '').replace(/\.[cm]?[jt]sx?$/, '');
  const safeStem = stem.replace(/^(\.\.\/)+/, '');
  return join(resolve(root, goldensDir), ...safeStem.split('/'), `${slugify(testName)}.json`);
}

/** The test file as recorded in a golden: relative to the root, forward slashes. */
export function relativeTestFile(root: string, testFile: string): string {
  return relative(root, testFile).split(sep).join('/');
}
