// The bench suite loads (every figure module imports without running) and
// its command line selects figures; nothing is measured here.

import { describe, expect, it } from 'vitest';
import { FIGURES, parseArgs } from './run.ts';

describe('bench suite', () => {
  it('lists every figure once, each with a run()', () => {
    const names = FIGURES.map((f) => f.name);
    expect(names).toEqual(['get', 'create', 'list', 'watch-creates', 'fanout', 'start', 'import', 'rss']);
    for (const f of FIGURES) expect(typeof f.run).toBe('function');
  });

  const ok: [string[], boolean, string[]][] = [
    [[], false, FIGURES.map((f) => f.name)],
    [['--quick'], true, FIGURES.map((f) => f.name)],
    [['--only', 'list,get'], false, ['get', 'list']],
    [['--only=rss', '--quick'], true, ['rss']],
  ];
  it.each(ok)('parseArgs %j', (argv, quick, names) => {
    const a = parseArgs(argv);
    expect(a.quick).toBe(quick);
    expect(a.figures.map((f) => f.name)).toEqual(names);
  });

  const bad: [string[], RegExp][] = [
    [['--only', 'nope'], /unknown figure nope/],
    [['--only'], /unknown figure \(none given\)/],
    [['--fast'], /unknown argument --fast/],
  ];
  it.each(bad)('parseArgs %j fails', (argv, want) => {
    expect(() => parseArgs(argv)).toThrow(want);
  });
});
