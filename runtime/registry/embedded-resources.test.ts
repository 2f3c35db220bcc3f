import { describe, expect, it } from 'vitest';
import { compileEmbeddedResources } from '../schema/embedded-resources.ts';
import { validateEmbeddedResources } from './embedded-resources.ts';

const embedded = compileEmbeddedResources({
  type: 'object',
  properties: { spec: { type: 'object', properties: { t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } } },
})!;

const cases: { name: string; t: Record<string, unknown>; errors: string[] }[] = [
  { name: 'valid', t: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { a: 'b' } } }, errors: [] },
  { name: 'apiVersion and kind required, metadata not', t: {}, errors: ['spec.t.apiVersion: Required value', 'spec.t.kind: Required value'] },
  { name: 'empty apiVersion and kind', t: { apiVersion: '', kind: '' }, errors: ['spec.t.apiVersion: Required value', 'spec.t.kind: Required value'] },
  { name: 'apiVersion with two slashes', t: { apiVersion: 'a/b/c', kind: 'K' }, errors: ['spec.t.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'] },
  {
    name: 'kind not a DNS-1035 label in lower case',
    t: { apiVersion: 'v1', kind: 'My_Kind' },
    errors: [
      `spec.t.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
  { name: 'name as a path segment', t: { apiVersion: 'v1', kind: 'K', metadata: { name: 'a/b' } }, errors: [`spec.t.metadata.name: Invalid value: "a/b": may not contain '/'`] },
  {
    name: 'generateName as a path segment prefix',
    t: { apiVersion: 'v1', kind: 'K', metadata: { generateName: 'a%' } },
    errors: [`spec.t.metadata.generateName: Invalid value: "a%": may not contain '%'`],
  },
  {
    name: 'a namespace must be a DNS-1123 label',
    t: { apiVersion: 'v1', kind: 'K', metadata: { namespace: 'Bad' } },
    errors: [
      `spec.t.metadata.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
  { name: 'finalizers at the embedded path', t: { apiVersion: 'v1', kind: 'K', metadata: { finalizers: ['a/b', 'a/b'] } }, errors: ['spec.t.metadata.finalizers[1]: Duplicate value: "a/b"'] },
];

describe('validateEmbeddedResources', () => {
  it.each(cases)('$name', (c) => {
    expect(validateEmbeddedResources(embedded, { spec: { t: c.t } }).map(String)).toEqual(c.errors);
  });
});
