// ServiceAccount admission: the account a Pod runs as.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../../registry/write-services.ts';
import { serviceAccountPlugin } from './service-account.ts';

const attrs = (object: any, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  object,
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
  ...over,
});

describe('ServiceAccount admission', () => {
  const rows: [string, any, Partial<AdmissionAttributes>, any][] = [
    ['no account: default', { spec: {} }, {}, { serviceAccountName: 'default', serviceAccount: 'default' }],
    ['no spec at all', {}, {}, { serviceAccountName: 'default', serviceAccount: 'default' }],
    ['a named account stays', { spec: { serviceAccountName: 'builder' } }, {}, { serviceAccountName: 'builder', serviceAccount: 'builder' }],
    ['the deprecated field names it', { spec: { serviceAccount: 'old' } }, {}, { serviceAccountName: 'old', serviceAccount: 'old' }],
    ['updates are left alone', { spec: {} }, { operation: 'UPDATE' }, {}],
    ['other resources are left alone', { spec: {} }, { resource: 'configmaps' }, {}],
    ['subresources are left alone', { spec: {} }, { subresource: 'status' }, {}],
    ['mirror pods are left alone', { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: {} }, {}, {}],
  ];
  it.each(rows)('%s', async (_name, object, over, wantSpec) => {
    const a = attrs(structuredClone(object), over);
    await serviceAccountPlugin().admit!(a);
    expect(a.object!.spec ?? {}).toEqual(wantSpec);
  });
});
