// Table tests of the x-kubernetes-validations evaluator: rule results,
// upstream's error texts (message, messageExpression, reason, fieldPath),
// transition rules and correlation of list-map, set and atomic lists,
// ratcheting, the runtime budget, and the compile errors at CRD write.
import { describe, it, expect } from 'vitest';
import { ruleValidator, usesOldSelf } from './index.ts';
import type { JSONSchema } from '../schema/types.ts';

const xv = (...rules: object[]) => ({ 'x-kubernetes-validations': rules });
const obj = (properties: Record<string, JSONSchema>, extra: JSONSchema = {}): JSONSchema => ({ type: 'object', properties, ...extra });

const specSchema = (spec: JSONSchema): JSONSchema => obj({ spec });
const errs = (schema: JSONSchema, o: unknown, old?: unknown, budget?: number) => {
  const v = ruleValidator(schema);
  expect(v.compileErrors.map(String)).toEqual([]);
  return v.validate(o, old, budget === undefined ? undefined : { budget }).map(String);
};

describe('x-kubernetes-validations: evaluation', () => {
  const replicas = specSchema(obj({ min: { type: 'integer' }, max: { type: 'integer' } }, xv({ rule: 'self.min <= self.max' })));
  it.each<[string, JSONSchema, unknown, unknown, string[]]>([
    ['a rule that holds', replicas, { spec: { min: 1, max: 2 } }, undefined, []],
    ['a failed rule without message', replicas, { spec: { min: 3, max: 2 } }, undefined, ['spec: Invalid value: "object": failed rule: self.min <= self.max']],
    ['no value, no rule', replicas, {}, undefined, []],
    [
      'a message',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: "self.a != 'x'", message: ' a must not be x ' }))),
      { spec: { a: 'x' } },
      undefined,
      ['spec: Invalid value: "object": a must not be x'],
    ],
    [
      'a messageExpression',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: "self.a != 'x'", messageExpression: "'a is ' + self.a" }))),
      { spec: { a: 'x' } },
      undefined,
      ['spec: Invalid value: "object": a is x'],
    ],
    [
      'an empty messageExpression falls back to the message',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: "self.a != 'x'", message: 'fallback', messageExpression: "''" }))),
      { spec: { a: 'x' } },
      undefined,
      ['spec: Invalid value: "object": fallback'],
    ],
    [
      'reason Forbidden',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: "self.a != 'x'", message: 'no x', reason: 'FieldValueForbidden' }))),
      { spec: { a: 'x' } },
      undefined,
      ['spec: Forbidden: no x'],
    ],
    [
      'reason Required',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'has(self.a)', message: 'a please', reason: 'FieldValueRequired' }))),
      { spec: {} },
      undefined,
      ['spec: Required value: a please'],
    ],
    ['reason Duplicate', specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'false', reason: 'FieldValueDuplicate' }))), { spec: {} }, undefined, ['spec: Duplicate value: "object"']],
    [
      'fieldPath',
      specSchema(
        obj({ a: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'string' } } }, xv({ rule: "self.a != 'x'", fieldPath: '.a' }, { rule: 'false', fieldPath: ".m['k.x']" })),
      ),
      { spec: { a: 'x', m: {} } },
      undefined,
      ['spec.a: Invalid value: "object": failed rule: self.a != \'x\'', 'spec.m[k.x]: Invalid value: "object": failed rule: false'],
    ],
    [
      'a rule at the root',
      { type: 'object', properties: { spec: { type: 'object' } }, ...xv({ rule: "self.metadata.name.startsWith('a')" }) },
      { metadata: { name: 'b' }, spec: {} },
      undefined,
      ['<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith(\'a\')'],
    ],
    [
      'a string node',
      specSchema(obj({ s: { type: 'string', ...xv({ rule: 'self.size() < 3' }) } })),
      { spec: { s: 'abcd' } },
      undefined,
      ['spec.s: Invalid value: "string": failed rule: self.size() < 3'],
    ],
    [
      'list items by index',
      specSchema(obj({ l: { type: 'array', items: { type: 'integer', ...xv({ rule: 'self > 0' }) } } })),
      { spec: { l: [1, 0, 2, -1] } },
      undefined,
      ['spec.l[1]: Invalid value: "integer": failed rule: self > 0', 'spec.l[3]: Invalid value: "integer": failed rule: self > 0'],
    ],
    [
      'map values by key',
      specSchema(obj({ m: { type: 'object', additionalProperties: { type: 'string', ...xv({ rule: "self != ''" }) } } })),
      { spec: { m: { a: 'x', b: '' } } },
      undefined,
      ['spec.m[b]: Invalid value: "string": failed rule: self != \'\''],
    ],
    [
      'an evaluation error',
      specSchema(obj({ a: { type: 'integer' } }, xv({ rule: 'self.a / 0 == 1' }))),
      { spec: { a: 1 } },
      undefined,
      ['spec: Invalid value: "object": int divide by zero evaluating rule: self.a / 0 == 1'],
    ],
    [
      'the IP library',
      specSchema(obj({ ip: { type: 'string', ...xv({ rule: 'isIP(self) && ip(self).family() == 4', message: 'must be IPv4' }) } })),
      { spec: { ip: '::1' } },
      undefined,
      ['spec.ip: Invalid value: "string": must be IPv4'],
    ],
  ])('%s', (_name, schema, o, old, want) => {
    expect(errs(schema, o, old)).toEqual(want);
  });
});

describe('x-kubernetes-validations: transition rules', () => {
  const immutable = specSchema(obj({ a: { type: 'string', ...xv({ rule: 'self == oldSelf', message: 'immutable' }) } }));
  it('runs only when an old value exists', () => {
    expect(errs(immutable, { spec: { a: 'x' } })).toEqual([]);
    expect(errs(immutable, { spec: { a: 'x' } }, { spec: {} })).toEqual([]);
    expect(errs(immutable, { spec: { a: 'y' } }, { spec: { a: 'x' } })).toEqual(['spec.a: Invalid value: "string": immutable']);
  });

  it('with optionalOldSelf runs on create too, oldSelf being none', () => {
    const s = specSchema(obj({ a: { type: 'string', ...xv({ rule: "oldSelf.hasValue() ? self == oldSelf.value() : self == 'first'", optionalOldSelf: true }) } }));
    expect(errs(s, { spec: { a: 'other' } })).toHaveLength(1);
    expect(errs(s, { spec: { a: 'first' } })).toEqual([]);
    expect(errs(s, { spec: { a: 'b' } }, { spec: { a: 'a' } })).toHaveLength(1);
  });

  const item = obj({ name: { type: 'string' }, v: { type: 'integer', ...xv({ rule: 'self >= oldSelf', message: 'may not decrease' }) } });
  it('correlates list-map items by their keys', () => {
    const s = specSchema(obj({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item } }));
    const old = {
      spec: {
        l: [
          { name: 'a', v: 5 },
          { name: 'b', v: 1 },
        ],
      },
    };
    expect(
      errs(
        s,
        {
          spec: {
            l: [
              { name: 'b', v: 0 },
              { name: 'a', v: 6 },
            ],
          },
        },
        old,
      ),
    ).toEqual(['spec.l[0].v: Invalid value: "integer": may not decrease']);
    expect(errs(s, { spec: { l: [{ name: 'c', v: 0 }] } }, old)).toEqual([]);
  });

  it('never correlates atomic lists: an unchanged item is checked again', () => {
    const positive = obj({ name: { type: 'string' }, v: { type: 'integer', ...xv({ rule: 'self > 0' }) } });
    const s = specSchema(obj({ l: { type: 'array', items: positive } }));
    const bad = { spec: { l: [{ name: 'a', v: 0 }] } };
    expect(errs(s, bad, bad)).toEqual(['spec.l[0].v: Invalid value: "integer": failed rule: self > 0']);
  });

  it('correlates set items by value', () => {
    const s = specSchema(obj({ l: { type: 'array', 'x-kubernetes-list-type': 'set', maxItems: 10, items: { type: 'string', maxLength: 10, ...xv({ rule: "self != 'bad'" }) } } }));
    // 'bad' unchanged from the old list: ratcheted; a new 'bad' is not.
    expect(errs(s, { spec: { l: ['bad'] } }, { spec: { l: ['bad'] } })).toEqual([]);
    expect(errs(s, { spec: { l: ['bad'] } }, { spec: { l: ['ok'] } })).toEqual(['spec.l[0]: Invalid value: "string": failed rule: self != \'bad\'']);
  });

  it('detects oldSelf outside string literals only', () => {
    expect(usesOldSelf('self == oldSelf')).toBe(true);
    expect(usesOldSelf("self == 'oldSelf'")).toBe(false);
    expect(usesOldSelf('self.oldSelf == 1')).toBe(false);
  });
});

describe('x-kubernetes-validations: runtime budget', () => {
  const s = specSchema(obj({ l: { type: 'array', maxItems: 300, items: { type: 'string', maxLength: 10 } } }, xv({ rule: "self.l.all(x, self.l.exists(y, y == x + 'z') || true)" })));
  it('stops with upstream text when the object budget runs out', () => {
    const l = Array.from({ length: 300 }, (_, i) => `v${i}`);
    const out = errs(s, { spec: { l } }, undefined, 1000);
    expect(out).toEqual(['spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run']);
  });
  it('passes within the budget', () => {
    expect(errs(s, { spec: { l: ['a', 'b'] } })).toEqual([]);
  });
});

describe('x-kubernetes-validations: compilation at CRD write', () => {
  const compile = (schema: JSONSchema) => ruleValidator(schema, { schemaPath: 'spec.versions[0].schema.openAPIV3Schema', resourceRoot: true }).compileErrors.map(String);
  it.each<[string, JSONSchema, string[]]>([
    [
      'an undefined field',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'self.b == 1' }))),
      [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.b == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'b\'',
      ],
    ],
    ['an empty rule', specSchema(obj({}, xv({ rule: ' ' }))), ['spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified']],
    [
      'a non-bool rule',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'self.a' }))),
      [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.a", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool',
      ],
    ],
    [
      'a messageExpression that is not a string',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'true', messageExpression: '1' }))),
      [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"1", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string',
      ],
    ],
    [
      'a fieldPath that names no field',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'true', fieldPath: '.b' }))),
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].fieldPath: Invalid value: ".b": fieldPath must be a valid path'],
    ],
    [
      'a rule too costly for its cardinality',
      specSchema(obj({ l: { type: 'array', items: { type: 'object', properties: { s: { type: 'array', items: { type: 'string' } } }, ...xv({ rule: "self.s.all(x, x.contains('a'))" }) } } })),
      [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        'spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x',
      ],
    ],
    [
      'oldSelf under an atomic list',
      specSchema(obj({ l: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5, ...xv({ rule: 'self == oldSelf' }) } } })),
      [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l]',
      ],
    ],
    [
      'optionalOldSelf without oldSelf',
      specSchema(obj({ a: { type: 'string' } }, xv({ rule: 'true', optionalOldSelf: true }))),
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule'],
    ],
    [
      'an unsupported reason and a message with a line break',
      specSchema(obj({}, xv({ rule: 'true', reason: 'Nope', message: 'a\nb' }))),
      [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      ],
    ],
  ])('%s', (_name, schema, want) => {
    const got = compile(schema);
    expect(got).toHaveLength(want.length);
    got.forEach((g, i) => expect(g.startsWith(want[i])).toBe(true));
  });

  it('bounds cardinality by maxItems', () => {
    const bounded = specSchema(obj({ l: { type: 'array', maxItems: 10, items: { type: 'object', properties: { s: { type: 'string', maxLength: 10 } }, ...xv({ rule: "self.s.contains('a')" }) } } }));
    const v = ruleValidator(bounded);
    expect(v.compileErrors).toEqual([]);
    expect(v.totalCost).toBeLessThan(100);
  });

  it('reports the total cost of the schema', () => {
    const rule = { rule: "self.all(x, x.contains('a'))" };
    const heavy = { type: 'array', maxItems: 3000, items: { type: 'string', maxLength: 3000 }, ...xv(rule) } as JSONSchema;
    const props: Record<string, JSONSchema> = {};
    for (let i = 0; i < 120; i++) props[`f${i}`] = heavy;
    const got = compile(specSchema(obj(props)));
    expect(got.at(-1)).toMatch(
      /^spec\.versions\[0\]\.schema\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.\d{6}x/,
    );
  });
});
