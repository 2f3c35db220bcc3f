import { describe, expect, it } from 'vitest';
import { evalPath } from './jsonpath.ts';
import { humanDuration } from './human-duration.ts';
import { toTable } from './convert.ts';
import type { PrinterColumn, ResourceDef } from '../../generated/api-types.ts';

describe('evalPath', () => {
  const obj = {
    spec: { type: 'ClusterIP', ports: [{ port: 80 }, { port: 443 }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'X', status: 'False' },
      ],
    },
  };
  it.each([
    ['.spec.type', ['ClusterIP']],
    ['{.spec.type}', ['ClusterIP']],
    ['.spec.ports[*].port', [80, 443]],
    ['.spec.ports[1].port', [443]],
    ['.spec.missing', []],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
  ])('%s', (path, want) => expect(evalPath(obj, path)).toEqual(want));
});

describe('humanDuration', () => {
  it.each([
    [-5000, '<invalid>'],
    [0, '0s'],
    [59_000, '59s'],
    [119_000, '119s'],
    [200_000, '3m20s'],
    [600_000, '10m'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [10 * 3600_000, '10h'],
    [50 * 3600_000, '2d2h'],
    [30 * 86400_000, '30d'],
    [800 * 86400_000, '2y70d'],
    [9 * 365 * 86400_000, '9y'],
  ])('%d ms', (ms, want) => expect(humanDuration(ms)).toBe(want));
});

describe('toTable of custom resources (the apiextensions table convertor)', () => {
  const def = (printerColumns: PrinterColumn[]) => ({ custom: true, printerColumns }) as unknown as ResourceDef;
  const created = new Date(Date.now() - 3 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const obj = { metadata: { name: 'a', creationTimestamp: created }, spec: { n: 2.7, s: 'x', b: true, when: 'not a date', m: { k: 1 } } };
  const table = (cols: PrinterColumn[]) => toTable(def(cols), [obj], { includeObject: 'None', version: 'v1', formatters: {} });

  it('shows Age when the version has no additionalPrinterColumns', () => {
    const t = table([]);
    expect(t.columnDefinitions.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Age', 'date'],
    ]);
    expect(t.rows[0].cells).toEqual(['a', '3d']);
  });

  it('keeps the declared columns only, with their types and a default description naming the JSONPath', () => {
    const cols: PrinterColumn[] = [
      { name: 'N', type: 'integer', priority: 0, jsonPath: '.spec.n' },
      { name: 'S', type: 'string', priority: 1, jsonPath: '.spec.s', description: 'mine' },
    ];
    const t = table(cols);
    expect(t.columnDefinitions.slice(1)).toEqual([
      { name: 'N', type: 'integer', format: '', priority: 0, description: 'Custom resource definition column (in JSONPath format): .spec.n' },
      { name: 'S', type: 'string', format: '', priority: 1, description: 'mine' },
    ]);
  });

  it.each<[string, PrinterColumn['type'], string, unknown]>([
    ['an integer is truncated', 'integer', '.spec.n', 2],
    ['a number', 'number', '.spec.n', 2.7],
    ['a boolean', 'boolean', '.spec.b', true],
    ['a value of another type is empty', 'integer', '.spec.s', null],
    ['a missing value is empty', 'string', '.spec.none', null],
    ['a missing date is empty', 'date', '.spec.none', null],
    ['a date that does not parse', 'date', '.spec.when', '<invalid>'],
    ['an object in a string column is JSON', 'string', '.spec.m', '{"k":1}'],
  ])('%s', (_name, type, jsonPath, want) => {
    expect(table([{ name: 'C', type, priority: 0, jsonPath }]).rows[0].cells[1]).toEqual(want);
  });
});

describe('toTable with cellsFrom', () => {
  const def = {
    group: 'g.io',
    version: 'v1',
    kind: 'A',
    custom: false,
    printerColumns: [{ name: 'Size', type: 'string', priority: 0, jsonPath: '.spec.size' }],
  } as unknown as ResourceDef;
  const obj = { apiVersion: 'g.io/v1', kind: 'A', metadata: { name: 'a' }, spec: { oldSize: 3 } };
  it.each([
    ['cells from the object as answered', undefined, ['a', null]],
    ['cells from the form cellsFrom gives (a storage version)', (o: Record<string, any>) => ({ ...o, spec: { size: o.spec.oldSize } }), ['a', 3]],
  ])('%s; the row carries the object as answered', (_name, cellsFrom, cells) => {
    const t = toTable(def, [obj], { includeObject: 'Object', version: 'v1', formatters: {}, cellsFrom });
    expect(t.rows[0].cells).toEqual(cells);
    expect(t.rows[0].object).toBe(obj);
  });
});
