import { describe, expect, it } from 'vitest';
import { fieldErrors } from './field-errors.ts';
import { GoValue, formatValue } from './go-format.ts';

describe('formatValue (Go notation)', () => {
  it.each([
    ['string', 'a"b', '"a\\"b"'],
    ['number', 5, '5'],
    ['negative', -1, '-1'],
    ['boolean', true, 'true'],
    ['missing', undefined, '"null"'],
    ['null', null, '"null"'],
    ['string list', ['10.1.0.5'], '[]string{"10.1.0.5"}'],
    ['two strings', ['a', 'b'], '[]string{"a", "b"}'],
    ['empty list', [], '[]string{}'],
    ['int list', [80, 443], '[]int32{80, 443}'],
    ['string map, sorted keys', { b: '2', a: '1' }, 'map[string]string{"a":"1", "b":"2"}'],
    ['empty map', {}, 'map[string]string{}'],
    ['Go literal', new GoValue('core.ServicePort{Port:80}'), 'core.ServicePort{Port:80}'],
    ['other structure (JSON)', { a: { b: 1 } }, '{"a":{"b":1}}'],
  ])('%s', (_n, v, want) => {
    expect(formatValue(v)).toBe(want);
  });
});

describe('FieldError text', () => {
  it.each([
    [fieldErrors.required('spec.x'), 'spec.x: Required value'],
    [fieldErrors.required('spec.x', 'must be set'), 'spec.x: Required value: must be set'],
    [fieldErrors.invalid('spec.clusterIPs', ['10.1.0.5'], 'bad'), 'spec.clusterIPs: Invalid value: []string{"10.1.0.5"}: bad'],
    [fieldErrors.invalid('spec.selector', null, 'field is immutable'), 'spec.selector: Invalid value: "null": field is immutable'],
    [fieldErrors.notSupported('spec.type', 'X', ['A', 'B']), 'spec.type: Unsupported value: "X": supported values: "A", "B"'],
    [fieldErrors.forbidden('spec.x', 'not allowed'), 'spec.x: Forbidden: not allowed'],
    [fieldErrors.duplicate('spec.ports[1].name', 'http'), 'spec.ports[1].name: Duplicate value: "http"'],
    [fieldErrors.notFound('spec.x', 'y'), 'spec.x: Not found: "y"'],
    [fieldErrors.tooLong('data', 10), 'data: Too long: may not be more than 10 bytes'],
    [fieldErrors.tooMany('spec.cidrs', 3, 2), 'spec.cidrs: Too many: 3: must have at most 2 items'],
  ])('%s', (err, want) => {
    expect(err.toString()).toBe(want);
    expect(err.cause().message).toBe(want.slice(want.indexOf(': ') + 2));
  });
});
