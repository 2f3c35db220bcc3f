// Go-style formatting used in upstream's error texts: %v rendering, Go type
// names, %q (cases after strconv.Quote) and the %#v literals of field errors.
import { describe, expect, it } from 'vitest';
import { formatValue, goIntOrString, goKind, goLabelSelector, goQuote, goTypeName, goValue, jsonKindName } from './go-format.ts';

describe('goValue', () => {
  it.each([
    [null, '<nil>'],
    ['s', 's'],
    [true, 'true'],
    [42, '42'],
    [-7, '-7'],
    [1.5, '1.5'],
    [123456.5, '123456.5'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [[], '[]'],
    [['a', 1, null], '[a 1 <nil>]'],
    [{}, 'map[]'],
    [{ name: 'x', $patch: 'delete' }, 'map[$patch:delete name:x]'],
    [{ b: [{ c: 1 }], a: 'z' }, 'map[a:z b:[map[c:1]]]'],
  ])('%j -> %s', (v, want) => {
    expect(goValue(v)).toBe(want);
  });
});

describe('Go types and kinds', () => {
  it.each([
    [null, '%!s(<nil>)', 'nil', 'null'],
    ['s', 'string', 'string', 'string'],
    [true, 'bool', 'bool', 'bool'],
    [3, 'int64', 'int64', 'number'],
    [3.5, 'float64', 'float64', 'number'],
    [[1], '[]interface {}', 'slice', 'array'],
    [{ a: 1 }, 'map[string]interface {}', 'map', 'object'],
  ])('%j', (v, typeName, kind, jsonKind) => {
    expect(goTypeName(v)).toBe(typeName);
    expect(goKind(v)).toBe(kind);
    expect(jsonKindName(v)).toBe(jsonKind);
  });
});

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['plain', 'abc', '"abc"'],
    ['quote and backslash', 'a"b\\c', '"a\\"b\\\\c"'],
    ['printable non-ASCII kept', 'ñ中😀', '"ñ中😀"'],
    ['simple escapes', '\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['C0 and DEL as \\x', '\u0001\u007f', '"\\x01\\x7f"'],
    ['C1 control as \\u', '\u0085', '"\\u0085"'],
    ['non-printable space as \\u', '\u00a0', '"\\u00a0"'],
    ['format character as \\u', '\u200b', '"\\u200b"'],
    ['lone surrogate as U+FFFD', 'a\ud800b', '"a\ufffdb"'],
    ['space kept', 'a b', '"a b"'],
  ])('%s', (_n, input, want) => {
    expect(goQuote(input)).toBe(want);
  });
});

describe('Go literals', () => {
  it.each([
    ['match labels', goLabelSelector({ matchLabels: { b: '2', a: '1' } }), 'v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "b":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}'],
    ['empty selector', goLabelSelector({}), 'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}'],
    [
      'expressions',
      goLabelSelector({
        matchExpressions: [
          { key: 'k', operator: 'In', values: ['v'] },
          { key: 'e', operator: 'Exists' },
        ],
      }),
      'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"In", Values:[]string{"v"}}, v1.LabelSelectorRequirement{Key:"e", Operator:"Exists", Values:[]string(nil)}}}',
    ],
    ['missing selector', goLabelSelector(undefined), '"null"'],
    ['int', goIntOrString(0), 'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}'],
    ['percent', goIntOrString('150%'), 'intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}'],
  ])('%s', (_n, v, want) => {
    expect(formatValue(v)).toBe(want);
  });
});
