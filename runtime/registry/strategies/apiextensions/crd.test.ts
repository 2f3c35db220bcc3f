// Table tests of CustomResourceDefinition validation: a representative set
// of upstream's validation_test.go cases (apiextensions-apiserver), written
// as v1 objects, each with the (type, field) pairs upstream expects, plus
// full texts for the messages users read most.
import { beforeAll, describe, it, expect } from 'vitest';
import { validateCRD, validateCRDUpdate } from './crd.ts';
import { customResourceDefinitionStrategy } from './strategy.ts';
import { defaultStrategy } from '../../strategy.ts';
import type { Obj } from '../../../storage/interface.ts';
import { resources } from '../../../../generated/registry.ts';
import { loadCRDRules } from './schema.ts';

beforeAll(loadCRDRules);

type J = Record<string, any>;
const schema = (s: J = { type: 'object' }) => ({ openAPIV3Schema: s });

/** upstream's fixture: plural.group.com with two versions, the first the storage version. */
function crd(mod: (c: J) => void = () => {}): Obj {
  const c: J = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'plural.group.com' },
    spec: {
      group: 'group.com',
      scope: 'Cluster',
      names: { plural: 'plural', singular: 'singular', kind: 'Plural', listKind: 'PluralList' },
      versions: [
        { name: 'version', served: true, storage: true, schema: schema() },
        { name: 'version2', served: true, storage: false, schema: schema() },
      ],
    },
    status: { storedVersions: ['version'] },
  };
  mod(c);
  return c as Obj;
}
const pairs = (o: Obj) => validateCRD(o).map((e) => `${e.type} ${e.field}`);
const texts = (o: Obj) => validateCRD(o).map(String);

describe('ValidateCustomResourceDefinition: upstream cases', () => {
  it.each<[string, (c: J) => void, string[]]>([
    ['a valid CRD', () => {}, []],
    [
      'webhookconfig: invalid port 0',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'n', namespace: 'ns', port: 0 } }, conversionReviewVersions: ['v1'] } }),
      ['FieldValueInvalid spec.conversion.webhookClientConfig.service.port'],
    ],
    [
      'webhookconfig: invalid port 65536',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'n', namespace: 'ns', port: 65536 } }, conversionReviewVersions: ['v1'] } }),
      ['FieldValueInvalid spec.conversion.webhookClientConfig.service.port'],
    ],
    [
      'webhookconfig: both service and URL provided',
      (c) =>
        (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/webhook', service: { name: 'n', namespace: 'ns' } }, conversionReviewVersions: ['v1'] } }),
      ['FieldValueRequired spec.conversion.webhookClientConfig'],
    ],
    [
      'webhookconfig: blank URL',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: '' }, conversionReviewVersions: ['v1'] } }),
      ['FieldValueInvalid spec.conversion.webhookClientConfig.url', 'FieldValueInvalid spec.conversion.webhookClientConfig.url'],
    ],
    [
      'webhookconfig_should_not_be_set',
      (c) => (c.spec.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://example.com/webhook' } } }),
      ['FieldValueForbidden spec.conversion.webhookClientConfig'],
    ],
    [
      'ConversionReviewVersions_should_not_be_set',
      (c) => (c.spec.conversion = { strategy: 'None', webhook: { conversionReviewVersions: ['v1beta1'] } }),
      ['FieldValueForbidden spec.conversion.conversionReviewVersions'],
    ],
    [
      'webhookconfig: invalid ConversionReviewVersion',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/webhook' }, conversionReviewVersions: ['invalid-version'] } }),
      ['FieldValueInvalid spec.conversion.conversionReviewVersions'],
    ],
    [
      'webhookconfig: invalid ConversionReviewVersion version string',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/webhook' }, conversionReviewVersions: ['0v'] } }),
      ['FieldValueInvalid spec.conversion.conversionReviewVersions[0]', 'FieldValueInvalid spec.conversion.conversionReviewVersions'],
    ],
    [
      'webhookconfig: at least one valid ConversionReviewVersion',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/webhook' }, conversionReviewVersions: ['invalid-version', 'v1beta1'] } }),
      [],
    ],
    [
      'webhookconfig: duplicate ConversionReviewVersion',
      (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/webhook' }, conversionReviewVersions: ['v1beta1', 'v1beta1'] } }),
      ['FieldValueInvalid spec.conversion.conversionReviewVersions[1]'],
    ],
    [
      'missing_webhookconfig',
      (c) => (c.spec.conversion = { strategy: 'Webhook' }),
      ['FieldValueRequired spec.conversion.webhookClientConfig', 'FieldValueRequired spec.conversion.conversionReviewVersions'],
    ],
    ['invalid_conversion_strategy', (c) => (c.spec.conversion = { strategy: 'non_existing_conversion' }), ['FieldValueNotSupported spec.conversion.strategy']],
    ['no_storage_version', (c) => (c.spec.versions[0].storage = false), ['FieldValueInvalid spec.versions']],
    ['multiple_storage_version', (c) => (c.spec.versions[1].storage = true), ['FieldValueInvalid spec.versions', 'FieldValueInvalid status.storedVersions']],
    ['missing_storage_version_in_stored_versions', (c) => (c.status.storedVersions = ['version2']), ['FieldValueInvalid status.storedVersions']],
    ['empty_stored_version', (c) => (c.status.storedVersions = []), ['FieldValueInvalid status.storedVersions']],
    ['mismatched name', (c) => (c.metadata.name = 'other.group.com'), ['FieldValueInvalid metadata.name']],
    [
      'missing values',
      (c) => {
        c.metadata.name = 'plural.group.com';
        c.spec = { versions: [{ name: 'version', served: true, storage: true, schema: schema() }], names: {} };
      },
      [
        'FieldValueInvalid metadata.name',
        'FieldValueRequired spec.group',
        'FieldValueRequired spec.scope',
        'FieldValueRequired spec.names.plural',
        'FieldValueRequired spec.names.singular',
        'FieldValueRequired spec.names.kind',
        'FieldValueRequired spec.names.listKind',
      ],
    ],
    [
      'bad names 01',
      (c) => {
        c.metadata.name = 'plural.group';
        c.spec.group = 'group';
        c.spec.scope = 'foo';
        c.spec.names = { plural: 'pl.ural', singular: 'sin.gular', kind: 'ki.nd', listKind: 'li.stkind', shortNames: ['s.hort'], categories: ['c.at'] };
      },
      [
        'FieldValueInvalid metadata.name',
        'FieldValueInvalid spec.group',
        'FieldValueNotSupported spec.scope',
        'FieldValueInvalid spec.names.plural',
        'FieldValueInvalid spec.names.singular',
        'FieldValueInvalid spec.names.kind',
        'FieldValueInvalid spec.names.listKind',
        'FieldValueInvalid spec.names.shortNames[0]',
        'FieldValueInvalid spec.names.categories[0]',
      ],
    ],
    ['bad names 02: kind == listKind', (c) => (c.spec.names.listKind = 'Plural'), ['FieldValueInvalid spec.names.listKind']],
    ['duplicate version names', (c) => (c.spec.versions[1].name = 'version'), ['FieldValueInvalid spec.versions']],
    ['version name not a DNS-1035 label', (c) => (c.spec.versions[1].name = 'Version2'), ['FieldValueInvalid spec.versions[1].name']],
    ['per-version schemas required', (c) => delete c.spec.versions[1].schema, ['FieldValueRequired spec.versions[1].schema.openAPIV3Schema']],
    ['preserveUnknownFields: true', (c) => (c.spec.preserveUnknownFields = true), ['FieldValueInvalid spec.preserveUnknownFields']],
    [
      'non-structural: missing types',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ properties: { spec: { properties: { a: {} } } } });
      },
      [
        'FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].properties[a].type',
        'FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].type',
        'FieldValueRequired spec.validation.openAPIV3Schema.type',
      ],
    ],
    [
      '$ref, definitions, uniqueItems and an unknown type',
      (c) => {
        for (const v of c.spec.versions)
          v.schema = schema({
            type: 'object',
            definitions: { x: { type: 'string' } },
            properties: { a: { $ref: '#/definitions/x' }, b: { type: 'array', uniqueItems: true, items: { type: 'string' } }, foo: { type: 'bogus' } },
          });
      },
      [
        'FieldValueForbidden spec.validation.openAPIV3Schema.definitions',
        'FieldValueForbidden spec.validation.openAPIV3Schema.properties[a].$ref',
        'FieldValueForbidden spec.validation.openAPIV3Schema.properties[b].uniqueItems',
        'FieldValueNotSupported spec.validation.openAPIV3Schema.properties[foo].type',
        'FieldValueRequired spec.validation.openAPIV3Schema.properties[a].type',
      ],
    ],
    [
      'additionalProperties with properties, and at the root',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ type: 'object', additionalProperties: { type: 'string' }, properties: { a: { type: 'string' } } });
      },
      ['FieldValueForbidden spec.validation.openAPIV3Schema.additionalProperties', 'FieldValueForbidden spec.validation.openAPIV3Schema.additionalProperties'],
    ],
    [
      'metadata beyond name and generateName',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } });
      },
      ['FieldValueForbidden spec.validation.openAPIV3Schema.properties[metadata]'],
    ],
    [
      'list-type map without keys, map-type on a string, set of granular objects',
      (c) => {
        for (const v of c.spec.versions)
          v.schema = schema({
            type: 'object',
            properties: {
              m: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { k: { type: 'string' } } } },
              s: { type: 'string', 'x-kubernetes-map-type': 'atomic' },
              set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { k: { type: 'string' } } } },
              keys: { type: 'array', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'string' } },
            },
          });
      },
      [
        'FieldValueRequired spec.validation.openAPIV3Schema.properties[m].x-kubernetes-list-map-keys',
        'FieldValueInvalid spec.validation.openAPIV3Schema.properties[s].type',
        'FieldValueInvalid spec.validation.openAPIV3Schema.properties[set].items.x-kubernetes-map-type',
        'FieldValueRequired spec.validation.openAPIV3Schema.properties[keys].x-kubernetes-list-type',
      ],
    ],
    [
      'list-map keys: not properties, not required, nested structural values',
      (c) => {
        for (const v of c.spec.versions)
          v.schema = schema({
            type: 'object',
            properties: { m: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'nope'], items: { type: 'object', properties: { k: { type: 'string' } } } } },
          });
      },
      ['FieldValueInvalid spec.validation.openAPIV3Schema.properties[m].x-kubernetes-list-map-keys', 'FieldValueRequired spec.validation.openAPIV3Schema.properties[m].items.properties[k].default'],
    ],
    [
      'int-or-string with preserve-unknown-fields; embedded resource not an object',
      (c) => {
        for (const v of c.spec.versions)
          v.schema = schema({
            type: 'object',
            properties: { a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }, e: { type: 'string', 'x-kubernetes-embedded-resource': true } },
          });
      },
      [
        'FieldValueInvalid spec.validation.openAPIV3Schema.properties[a].x-kubernetes-preserve-unknown-fields',
        'FieldValueInvalid spec.validation.openAPIV3Schema.properties[e].type',
        'FieldValueRequired spec.validation.openAPIV3Schema.properties[e].properties',
      ],
    ],
    [
      'structural: types inside anyOf',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }, { pattern: 'x' }] } } });
      },
      ['FieldValueForbidden spec.validation.openAPIV3Schema.properties[a].anyOf[0].type'],
    ],
    [
      'int-or-string pattern under anyOf is allowed',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } });
      },
      [],
    ],
    [
      'scale paths',
      (c) => {
        for (const v of c.spec.versions) v.subresources = { scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' } };
      },
      ['FieldValueInvalid spec.subresources.scale.specReplicasPath', 'FieldValueInvalid spec.subresources.scale.statusReplicasPath', 'FieldValueInvalid spec.subresources.scale.labelSelectorPath'],
    ],
    [
      'printer columns',
      (c) => {
        c.spec.versions[0].additionalPrinterColumns = [{ name: '', type: 'bogus', format: 'nope', jsonPath: 'spec' }];
      },
      [
        'FieldValueRequired spec.versions[0].additionalPrinterColumns[0].name',
        'FieldValueInvalid spec.versions[0].additionalPrinterColumns[0].type',
        'FieldValueInvalid spec.versions[0].additionalPrinterColumns[0].format',
        'FieldValueInvalid spec.versions[0].additionalPrinterColumns[0].JSONPath',
      ],
    ],
    [
      'selectable fields',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'object' } } } } });
        c.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.metadata.name' }, { jsonPath: '.spec.nope' }, {}];
      },
      [
        'FieldValueDuplicate spec.versions[0].selectableFields[1].jsonPath',
        'FieldValueInvalid spec.versions[0].selectableFields[2].jsonPath',
        'FieldValueInvalid spec.versions[0].selectableFields[3].jsonPath',
        'FieldValueInvalid spec.versions[0].selectableFields[4].jsonPath',
        'FieldValueRequired spec.versions[0].selectableFields[5].jsonPath',
      ],
    ],
    [
      'a rule that does not compile',
      (c) => {
        for (const v of c.spec.versions)
          v.schema = schema({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.b > 0' }] } } });
      },
      ['FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule'],
    ],
    [
      'rules are not compiled while the schema has errors',
      (c) => {
        for (const v of c.spec.versions) v.schema = schema({ type: 'object', properties: { spec: { properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.b > 0' }] } } });
      },
      ['FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].type'],
    ],
  ])('%s', (_name, mod, want) => {
    expect(pairs(crd(mod)).sort()).toEqual([...want].sort());
  });
});

describe('ValidateCustomResourceDefinition: texts', () => {
  it('words the common mistakes as upstream', () => {
    expect(texts(crd((c) => (c.metadata.name = 'other.group.com')))).toEqual(['metadata.name: Invalid value: "other.group.com": must be spec.names.plural+"."+spec.group']);
    expect(texts(crd((c) => (c.spec.versions[1].storage = true)))[0]).toMatch(
      /^spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/,
    );
    expect(texts(crd((c) => (c.spec.preserveUnknownFields = true)))).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
    expect(texts(crd((c) => (c.spec.group = 'group')))).toContain('spec.group: Invalid value: "group": should be a domain with at least one dot');
    expect(texts(crd((c) => (c.spec.names.kind = 'Ki_nd')))[0]).toMatch(
      /^spec\.names\.kind: Invalid value: "Ki_nd": may have mixed case, but should otherwise match: a DNS-1035 label must consist of/,
    );
    const ap = texts(crd((c) => (c.spec.versions = [{ name: 'version', served: true, storage: true, schema: schema({ type: 'object', properties: { a: { type: 'array' } } }) }])));
    expect(ap).toEqual(['spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified']);
  });

  it.each<[string, J, string[]]>([
    // upstream's "invalid regex pattern" case of TestValidateCustomResourceDefinition
    [
      'a pattern Go cannot compile',
      { foo: { type: 'string', pattern: '+' } },
      [
        'spec.validation.openAPIV3Schema.properties[foo].pattern: Invalid value: "+": must be a valid regular expression, but isn\'t: error parsing regexp: missing argument to repetition operator: `+`',
      ],
    ],
    ['RE2 syntax JavaScript lacks (a flag group)', { foo: { type: 'string', pattern: '(?i)^abc$' } }, []],
    ['JavaScript syntax RE2 lacks (a look-behind)', { foo: { type: 'string', pattern: '(?<=a)b' } }, ['spec.validation.openAPIV3Schema.properties[foo].pattern']],
    ['a repeat count over 1000', { foo: { type: 'string', pattern: 'a{1001}' } }, ['spec.validation.openAPIV3Schema.properties[foo].pattern']],
    ['a bad pattern under allOf', { foo: { type: 'string', allOf: [{ pattern: '(' }] } }, ['spec.validation.openAPIV3Schema.properties[foo].allOf[0].pattern']],
  ])('checks patterns as RE2: %s', (_name, props, want) => {
    const got = texts(crd((c) => c.spec.versions.forEach((v: J) => (v.schema = schema({ type: 'object', properties: props })))));
    expect(got.length).toBe(want.length);
    got.forEach((t, i) => expect(t.startsWith(want[i])).toBe(true));
  });

  it('per-version schemas that differ are validated at their version', () => {
    const out = texts(
      crd((c) => {
        c.spec.versions[1].schema = schema({ type: 'object', properties: { a: {} } });
      }),
    );
    expect(out).toEqual(['spec.versions[1].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields']);
  });
});

describe('ValidateCustomResourceDefinitionUpdate', () => {
  const established = (c: J) => (c.status.conditions = [{ type: 'Established', status: 'True' }]);
  it.each<[string, (c: J) => void, (c: J) => void, string[]]>([
    [
      'group and plural never change',
      () => {},
      (c) => ((c.spec.group = 'other.com'), (c.spec.names.plural = 'others'), (c.metadata.name = 'others.other.com')),
      ['FieldValueInvalid spec.group', 'FieldValueInvalid spec.names.plural'],
    ],
    ['scope and kind may change before established', () => {}, (c) => ((c.spec.scope = 'Namespaced'), (c.spec.names.kind = 'Other')), []],
    [
      'scope and kind are immutable once established',
      established,
      (c) => ((c.spec.scope = 'Namespaced'), (c.spec.names.kind = 'Other')),
      ['FieldValueInvalid spec.scope', 'FieldValueInvalid spec.names.kind'],
    ],
    [
      'a stored version may not leave spec.versions',
      (c) => (c.status.storedVersions = ['version', 'version2']),
      (c) => ((c.spec.versions = [c.spec.versions[0]]), (c.status.storedVersions = ['version', 'version2'])),
      ['FieldValueInvalid status.storedVersions[1]'],
    ],
  ])('%s', (_name, oldMod, newMod, want) => {
    const old = crd(oldMod);
    const obj = crd((c) => {
      oldMod(c);
      newMod(c);
    });
    expect(
      validateCRDUpdate(obj, old)
        .map((e) => `${e.type} ${e.field}`)
        .sort(),
    ).toEqual([...want].sort());
  });
});

describe('the CRD strategy', () => {
  const def = resources.find((r) => r.group === 'apiextensions.k8s.io' && r.kind === 'CustomResourceDefinition')!;
  const s = customResourceDefinitionStrategy(def, defaultStrategy(def));
  it('records the storage version on create and adds a new one on update', () => {
    const obj = crd((c) => delete c.status);
    s.prepareForCreate(obj);
    expect(obj.status).toEqual({ storedVersions: ['version'] });
    expect(s.validate(obj)).toEqual([]);
    const next = structuredClone(obj);
    next.spec.versions[0].storage = false;
    next.spec.versions[1].storage = true;
    next.status = { storedVersions: [] };
    s.prepareForUpdate(next, obj);
    expect(next.status).toEqual({ storedVersions: ['version', 'version2'] });
    expect(s.validateUpdate(next, obj)).toEqual([]);
  });
});
