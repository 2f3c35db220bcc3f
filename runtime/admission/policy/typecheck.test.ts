// Type checking of a policy (status.typeChecking) against given schemas:
// `object` typed by the matched kind's schema, `params` by the paramKind's
// schema when it is known (and undeclared when it is not, as upstream's
// checker), `namespaceObject` as the Namespace type; the warning texts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { JSONSchema } from '../../cel/index.ts';
import type { Obj } from '../../storage/interface.ts';
import { loadAdmissionCel } from '../matching/cel.ts';
import type { GroupVersionKind } from '../matching/rules.ts';
import { paramKindOf, typeCheckPolicy, type TypeCheckServices } from './typecheck.ts';

beforeAll(loadAdmissionCel);

const widget: JSONSchema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: '#/components/schemas/Meta' },
    spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } },
  },
};
const limits: JSONSchema = {
  type: 'object',
  properties: { metadata: { $ref: '#/components/schemas/Meta' }, data: { type: 'object', additionalProperties: { type: 'string' } }, max: { type: 'integer' } },
};
const meta: JSONSchema = { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } };
const refs: Record<string, JSONSchema> = { '#/components/schemas/Meta': meta };

const services: TypeCheckServices = {
  kindsFor: (group, version, resource) => (group === 'example.com' && version === 'v1' && resource === 'widgets' ? [{ group, version, kind: 'Widget' }] : []),
  schemaFor: (gvk: GroupVersionKind) => {
    const schema = gvk.kind === 'Widget' ? widget : gvk.kind === 'Limits' && gvk.group === 'example.com' ? limits : undefined;
    return schema ? { schema, resolveRef: (ref) => refs[ref] } : undefined;
  },
};

const policy = (validations: Obj[], paramKind?: Obj): Obj => ({
  metadata: { name: 'p', generation: 1 },
  spec: {
    ...(paramKind ? { paramKind } : {}),
    matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
    validations,
  },
});
const LIMITS = { apiVersion: 'example.com/v1', kind: 'Limits' };

describe('typeCheckPolicy', () => {
  it.each<[string, Obj, { fieldRef: string; warning: RegExp }[]]>([
    ['a good policy', policy([{ expression: 'object.spec.size < 10' }]), []],
    [
      'an unknown field of object',
      policy([{ expression: 'object.spec.sizee < 10' }]),
      [{ fieldRef: 'spec.validations[0].expression', warning: /^example\.com\/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'sizee'/ }],
    ],
    ['params typed by its kind: a good use', policy([{ expression: 'object.spec.size <= params.max' }], LIMITS), []],
    [
      'params typed by its kind: a wrong type',
      policy([{ expression: "object.spec.size <= params.data['max']" }], LIMITS),
      [{ fieldRef: 'spec.validations[0].expression', warning: /^example\.com\/v1, Kind=Widget: ERROR: .*found no matching overload for '_<=_' applied to '\(int, string\)'/ }],
    ],
    ['params typed by its kind: an unknown field', policy([{ expression: 'params.min > 0' }], LIMITS), [{ fieldRef: 'spec.validations[0].expression', warning: /undefined field 'min'/ }]],
    [
      'params of a kind whose schema is unknown is not declared',
      policy([{ expression: 'params.anything > 0' }], { apiVersion: 'example.com/v1', kind: 'Unknown' }),
      [{ fieldRef: 'spec.validations[0].expression', warning: /undeclared reference to 'params'/ }],
    ],
    [
      'namespaceObject is the Namespace type (its uid is spelled UID)',
      policy([{ expression: "namespaceObject.metadata.uid != ''", messageExpression: "'in ' + namespaceObject.metadata.name" }]),
      [{ fieldRef: 'spec.validations[0].expression', warning: /undefined field 'uid'/ }],
    ],
  ])('%s', (_n, p, want) => {
    const got = typeCheckPolicy(p, services);
    expect(got.map((w) => w.fieldRef)).toEqual(want.map((w) => w.fieldRef));
    got.forEach((w, i) => expect(w.warning).toMatch(want[i].warning));
  });

  it.each<[Obj | undefined, GroupVersionKind | undefined]>([
    [
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { group: '', version: 'v1', kind: 'ConfigMap' },
    ],
    [
      { apiVersion: 'example.com/v1', kind: 'Limits' },
      { group: 'example.com', version: 'v1', kind: 'Limits' },
    ],
    [{ apiVersion: 'a/b/c', kind: 'X' }, undefined],
    [{ apiVersion: 'v1' }, undefined],
    [undefined, undefined],
  ])('paramKindOf(%j)', (paramKind, want) => {
    expect(paramKindOf({ spec: paramKind ? { paramKind } : {} })).toEqual(want);
  });
});
