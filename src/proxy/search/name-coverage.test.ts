import { describe, expect, it } from 'vitest';
import { NameCoverage } from './name-coverage.ts';

describe('NameCoverage', () => {
  const coverage = new NameCoverage([
    [{ term: 'creat', also: [] }, { term: 'directori', also: ['folder', 'dir'] }],
    [],
    [{ term: 'folder', also: [] }],
  ]);

  it('sums, per document, the best weight the query gives each name term, itself or what it is also called', () => {
    coverage.clear();
    coverage.reach('folder', 0.8, 1);
    coverage.reach('dir', 0.9, 0.5);
    coverage.reach('directori', 0.3, 1);
    expect(coverage.covered(0)).toBe(0.8);
    expect(coverage.covered(1)).toBe(0);
    expect(coverage.covered(2)).toBe(0.8);
    coverage.reach('creat', 1, 1);
    expect(coverage.covered(0)).toBe(1.8);
  });

  it('forgets one query before the next', () => {
    coverage.clear();
    coverage.reach('creat', 0.5, 1);
    expect([coverage.covered(0), coverage.covered(2)]).toEqual([0.5, 0]);
    coverage.clear();
    expect([coverage.covered(0), coverage.covered(2)]).toEqual([0, 0]);
  });
});
