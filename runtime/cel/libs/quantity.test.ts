// Table tests of quantity parsing, canonical form and the quantity library.
import { describe, it, expect } from 'vitest';
import { QuantityValue } from './quantity-parse.ts';
import { run } from '../testing/run.ts';

describe('quantity parsing and canonical form', () => {
  it.each([
    ['0', '0'],
    ['100m', '100m'],
    ['1000m', '1'],
    ['0.5', '500m'],
    ['1.5k', '1500'],
    ['1500', '1500'],
    ['1.5Gi', '1536Mi'],
    ['1Ki', '1Ki'],
    ['1024', '1024'],
    ['0.5Ki', '512'],
    ['-1Ki', '-1Ki'],
    ['2048Ki', '2Mi'],
    ['1e3', '1e3'],
    ['1E6', '1e6'],
    ['1.1e-3', '1100e-6'],
    ['1n', '1n'],
    ['0.1n', '1n'],
    ['-0.1n', '-1n'],
    ['12M', '12M'],
    ['1000k', '1M'],
    ['+5', '5'],
    ['.5', '500m'],
    ['1.', '1'],
    ['5E', '5E'],
  ])('%s -> %s', (input, canonical) => {
    expect(QuantityValue.parse(input).toString()).toBe(canonical);
  });

  it.each(['', 'abc', '1.2.3', '1Kb', '1 Ki', 'Ki', '1e', '--1', '1i'])('rejects %j', (input) => {
    expect(() => QuantityValue.parse(input)).toThrow();
  });
});

describe('quantity library', () => {
  it.each<[string, unknown]>([
    ["isQuantity('1.5Gi')", true],
    ["isQuantity('1.5GB')", false],
    ["quantity('1.5Gi').isInteger()", true],
    ["quantity('1500m').isInteger()", false],
    ["quantity('1.5k').asInteger()", 1500],
    ["quantity('500m').asApproximateFloat()", 0.5],
    ["quantity('-3').sign()", -1],
    ["quantity('0').sign()", 0],
    ["quantity('1').sign()", 1],
    ["quantity('1Gi').add(quantity('512Mi')).isGreaterThan(quantity('1.4Gi'))", true],
    ["quantity('1').add(2).asInteger()", 3],
    ["quantity('1').sub(quantity('500m')).asApproximateFloat()", 0.5],
    ["quantity('5').sub(7).sign()", -1],
    ["quantity('1Gi').isLessThan(quantity('1G'))", false],
    ["quantity('1Gi').compareTo(quantity('1024Mi'))", 0],
    ["quantity('1').compareTo(quantity('2'))", -1],
    ["quantity('1000m') == quantity('1')", true],
    ["quantity('1') != quantity('2')", true],
    ["string(quantity('1.5Gi').add(quantity('0')))", undefined],
  ])('%s', (expr, want) => {
    if (want === undefined) return; // no string() overload for quantities: covered by checker tests
    expect(run(expr)).toEqual(want);
  });

  it.each([
    ["quantity('abc')", 'quantities must match'],
    ["quantity('1.5').asInteger()", 'cannot convert value to integer'],
    ["quantity('10E').asInteger()", 'cannot convert value to integer'],
  ])('%s fails', (expr, msg) => {
    expect(() => run(expr)).toThrow(msg);
  });
});
