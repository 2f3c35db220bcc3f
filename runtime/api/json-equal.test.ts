// jsonEqual (exact JSON equality) against typedEqual (as Go's
// Semantic.DeepEqual compares typed objects: null, [] and {} members are the
// same as absent ones), one row per case.
import { describe, expect, it } from 'vitest';
import { jsonEqual, typedEqual } from './json-equal.ts';

const rows: [string, unknown, unknown, boolean, boolean][] = [
  // name, a, b, jsonEqual, typedEqual
  ['same scalars', 1, 1, true, true],
  ['different scalars', 1, 2, false, false],
  ['key order', { a: 1, b: 2 }, { b: 2, a: 1 }, true, true],
  ['empty list member vs absent', { ports: [] }, {}, false, true],
  ['null member vs absent', { selector: null }, {}, false, true],
  ['empty map member vs absent', { labels: {} }, {}, false, true],
  ['absent vs empty list, reversed', {}, { ports: [] }, false, true],
  ['nested empty vs absent', { spec: { template: { spec: { volumes: [] } } } }, { spec: { template: { spec: {} } } }, false, true],
  ['empty list vs null', [], null, false, true],
  ['non-empty list vs absent', { ports: [1] }, {}, false, false],
  ['zero scalar is not absent', { replicas: 0 }, {}, false, false],
  ['false is not absent', { paused: false }, {}, false, false],
  ['list elements compared typed', [{ a: [] }], [{}], false, true],
  ['list lengths differ', [1], [1, 1], false, false],
  ['list vs map', [], {}, false, true],
  ['non-empty list vs map', [1], { 0: 1 }, false, false],
];

describe('JSON equality', () => {
  it.each(rows)('%s', (_name, a, b, json, typed) => {
    expect(jsonEqual(a, b)).toBe(json);
    expect(typedEqual(a, b)).toBe(typed);
    expect(typedEqual(b, a)).toBe(typed);
  });
});
