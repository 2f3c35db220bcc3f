// attrsFor: labels, name, namespace and declared selectable fields.
import { describe, expect, it } from 'vitest';
import { attrsFor, supportedFields } from './attrs.ts';
import { parseFieldSelector } from './fields.ts';

describe('attrsFor', () => {
  const secret = { metadata: { name: 's', namespace: 'ns', labels: { a: 'b' } }, type: 'kubernetes.io/tls' };
  const pod = { metadata: { name: 'p' }, spec: { nodeName: 'n1', hostNetwork: true, priority: 5 } };
  it.each([
    [['type'], secret, { 'metadata.name': 's', 'metadata.namespace': 'ns', type: 'kubernetes.io/tls' }],
    [
      ['spec.nodeName', 'spec.hostNetwork', 'spec.priority', 'spec.missing'],
      pod,
      { 'metadata.name': 'p', 'metadata.namespace': '', 'spec.nodeName': 'n1', 'spec.hostNetwork': 'true', 'spec.priority': '5', 'spec.missing': '' },
    ],
  ])('%j', (fields, obj, want) => {
    expect(attrsFor(fields)(obj).fields).toEqual(want);
  });
  it('feeds field selectors and lists the supported fields', () => {
    const a = attrsFor(['type'])(secret);
    expect(a.labels).toEqual({ a: 'b' });
    expect(parseFieldSelector('type=kubernetes.io/tls', supportedFields(['type'])).matches(a.fields)).toBe(true);
    expect(() => parseFieldSelector('spec.x=1', supportedFields(['type']))).toThrow('field label not supported: spec.x');
  });
});
