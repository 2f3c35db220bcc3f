// The bench suite loads (every figure module imports without running) and
// its command line selects figures; nothing is measured here.

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIGURES, parseArgs } from './run.ts';

describe('bench suite', () => {
  it('lists every figure once, each with a run()', () => {
    const names = FIGURES.map((f) => f.name);
    expect(names).toEqual([
      'get',
      'get-audit',
      'get-observed',
      'create',
      'create-webhook',
      'list',
      'watch-creates',
      'fanout',
      'start',
      'import',
      'rss',
      'crd-serve',
      'crd-rules',
      'crd-memory',
      'crd-reads',
      'crd-wide',
      'vap',
      'etcd',
    ]);
    for (const f of FIGURES) expect(typeof f.run).toBe('function');
  });

  const ok: [string[], boolean, string[]][] = [
    [[], false, FIGURES.map((f) => f.name)],
    [['--quick'], true, FIGURES.map((f) => f.name)],
    [['--only', 'list,get'], false, ['get', 'list']],
    [['--only=rss', '--quick'], true, ['rss']],
    [['--only', 'crd-memory,crd-serve'], false, ['crd-serve', 'crd-memory']],
    [['--before', '/tmp/old', '--only', 'get'], false, ['get']],
  ];
  it.each(ok)('parseArgs %j', (argv, quick, names) => {
    const a = parseArgs(argv);
    expect(a.quick).toBe(quick);
    expect(a.figures.map((f) => f.name)).toEqual(names);
  });

  const before: [string[], string | undefined][] = [
    [['--quick'], undefined],
    [['--before', '/tmp/old'], '/tmp/old'],
    [['--before=/tmp/old/', '--quick'], '/tmp/old'],
    [['--before', 'rel'], resolve('rel')],
  ];
  it.each(before)('parseArgs %j: before', (argv, want) => {
    expect(parseArgs(argv).before).toBe(want);
  });

  const bad: [string[], RegExp][] = [
    [['--only', 'nope'], /unknown figure nope/],
    [['--only'], /unknown figure \(none given\)/],
    [['--fast'], /unknown argument --fast/],
    [['--before'], /--before: give the directory/],
    [['--before', '--quick'], /--before: give the directory/],
  ];
  it.each(bad)('parseArgs %j fails', (argv, want) => {
    expect(() => parseArgs(argv)).toThrow(want);
  });
});
