// The summary printer: aims met or not, value formats, and the table built
// from given rows (no timing involved).

import { describe, expect, it } from 'vitest';
import { formatAim, formatSummary, formatValue, met, type Aim, type Row } from './summary.ts';

const row = (over: Partial<Row>): Row => ({
  figure: 'f',
  unit: '/s',
  ours: 1,
  baseline: 1,
  baselineIs: 'b',
  aim: { of: 'ratio', op: '>=', value: 0.8 },
  load: '1.00',
  ...over,
});

describe('met', () => {
  const rows: [string, Partial<Row>, boolean][] = [
    ['ratio above a >= aim', { ours: 9, baseline: 10 }, true],
    ['ratio below a >= aim', { ours: 7, baseline: 10 }, false],
    ['ratio exactly on the aim', { ours: 8, baseline: 10 }, true],
    ['ratio under a <= aim', { ours: 11, baseline: 10, aim: { of: 'ratio', op: '<=', value: 1.2 } }, true],
    ['ratio over a <= aim', { ours: 13, baseline: 10, aim: { of: 'ratio', op: '<=', value: 1.2 } }, false],
    ['our own figure under a bound', { ours: 140, baseline: 50, aim: { of: 'ours', op: '<=', value: 150 } }, true],
    ['our own figure over a bound, whatever the ratio', { ours: 160, baseline: 500, aim: { of: 'ours', op: '<=', value: 150 } }, false],
  ];
  it.each(rows)('%s', (_name, over, want) => {
    expect(met(row(over))).toBe(want);
  });
});

describe('formatValue and formatAim', () => {
  const values: [number, string, string][] = [
    [6300, '/s', '6300/s'],
    [12_000, '/s', '12.0k/s'],
    [64.46, 'ms', '64.5 ms'],
    [3.2, 'ms', '3.20 ms'],
    [687.4, 'MB', '687 MB'],
    [Infinity, 'ms', 'Infinity'],
  ];
  it.each(values)('%d %s', (n, unit, want) => {
    expect(formatValue(n, unit)).toBe(want);
  });
  const aims: [Aim, string, string][] = [
    [{ of: 'ratio', op: '>=', value: 0.8 }, '/s', 'ratio ≥ 0.8'],
    [{ of: 'ratio', op: '<=', value: 1.2 }, 'ms', 'ratio ≤ 1.2'],
    [{ of: 'ours', op: '<=', value: 150 }, 'ms', '≤ 150 ms'],
  ];
  it.each(aims)('%j', (aim, unit, want) => {
    expect(formatAim(aim, unit)).toBe(want);
  });
});

describe('formatSummary', () => {
  it('prints one aligned line per row, the load averages and the failures', () => {
    const rows = [
      row({ figure: 'GET one object, JSON', ours: 6300, baseline: 12_000, load: '1.52' }),
      row({ figure: 'LIST', unit: 'ms', ours: 99, baseline: 51, aim: { of: 'ratio', op: '<=', value: 1.2 }, load: '2.00' }),
    ];
    expect(formatSummary(rows, [{ figure: 'rss', error: 'LIST: 500' }], '1.00 1.10 1.20', '2.00 1.50 1.30').split('\n')).toEqual([
      'load average at start: 1.00 1.10 1.20',
      'figure                   ours  baseline  ratio          aim           load',
      '--------------------  -------  --------  -----  -----------  -------  ----',
      'GET one object, JSON   6300/s   12.0k/s   0.53  ratio ≥ 0.8  not met  1.52',
      'LIST                  99.0 ms   51.0 ms   1.94  ratio ≤ 1.2  not met  2.00',
      'FAILED rss: LIST: 500',
      'load average at end: 2.00 1.50 1.30',
    ]);
  });

  it('prints the header alone when nothing was measured', () => {
    expect(formatSummary([], [], '0.00 0.00 0.00', '0.00 0.00 0.00').split('\n')).toHaveLength(4);
  });
});
