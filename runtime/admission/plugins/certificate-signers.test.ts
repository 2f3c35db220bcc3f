// CertificateApproval and CertificateSigning over a fake authorizer that
// allows listed (user, verb, signer name) triples: which updates need
// which verb, the exact signer name and the `<domain>/*` wildcard, the old
// object's signerName deciding, status writes that leave the certificate
// alone passing, and upstream's 403 text.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { Attributes } from '../../authz/attributes.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import { certificateApprovalPlugin, certificateSigningPlugin, signerNames } from './certificate-signers.ts';

const asked: Attributes[] = [];
/** Allows `user verb name` triples; 'boom' as a user makes the authorizer throw. */
const authorizer = (grants: string[]): Authorizer => ({
  authorize(a) {
    asked.push(a);
    if (a.user.name === 'boom') throw new Error('unreachable');
    const ok = a.apiGroup === 'certificates.k8s.io' && a.resource === 'signers' && a.apiVersion === '*' && grants.includes(`${a.user.name} ${a.verb} ${a.name}`);
    return { decision: ok ? 'allow' : 'noopinion', reason: '' };
  },
});

const csr = (signerName: string, status: Obj = {}): Obj => ({ metadata: { name: 'req' }, spec: { signerName }, status });
const approved = [{ type: 'Approved', status: 'True', reason: 'R' }];

const attrs = (subresource: string, user: string, old: Obj, obj: Obj, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'UPDATE',
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  resource: 'certificatesigningrequests',
  subresource,
  namespace: '',
  name: 'req',
  object: obj,
  oldObject: old,
  dryRun: false,
  user: { name: user, groups: ['system:authenticated'] },
  ...over,
});

async function outcome(plugin: AdmissionPlugin, a: AdmissionAttributes): Promise<string> {
  try {
    await plugin.validate!(a);
    return 'allowed';
  } catch (err) {
    if (err instanceof ApiError) return `${err.code} ${err.message}`;
    throw err;
  }
}

const GRANTS = ['ann approve example.com/a', 'wil approve example.com/*', 'sam sign example.com/a', 'sid sign example.com/*', 'ann sign other.io/a'];

describe('signerNames', () => {
  it.each([
    ['example.com/a', ['example.com/a', 'example.com/*']],
    ['kubernetes.io/kube-apiserver-client', ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/*']],
    ['a/b/c', ['a/b/c', 'a/*']],
  ])('%s', (name, want) => expect(signerNames(name)).toEqual(want));
});

describe('CertificateApproval', () => {
  const plugin = certificateApprovalPlugin(authorizer(GRANTS));
  it.each([
    ['approve on the exact name', 'ann', 'example.com/a', 'allowed'],
    ['approve on the domain wildcard', 'wil', 'example.com/zzz', 'allowed'],
    [
      'approve on another name of the domain',
      'ann',
      'example.com/b',
      '403 certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "example.com/b"',
    ],
    ['sign is not approve', 'sam', 'example.com/a', '403 certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "example.com/a"'],
    ['a wildcard of another domain', 'wil', 'other.io/a', '403 certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "other.io/a"'],
    [
      'an authorizer error is no allow',
      'boom',
      'example.com/a',
      '403 certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "example.com/a"',
    ],
  ])('%s', async (_, user, signer, want) => {
    expect(await outcome(plugin, attrs('approval', user, csr(signer), csr(signer, { conditions: approved })))).toBe(want);
  });

  it('asks about the old signerName, the exact name before the wildcard', async () => {
    asked.length = 0;
    expect(await outcome(plugin, attrs('approval', 'wil', csr('example.com/x'), csr('other.io/x', { conditions: approved })))).toBe('allowed');
    expect(asked.map((a) => `${a.verb} ${a.name}`)).toEqual(['approve example.com/x', 'approve example.com/*']);
  });

  it.each([
    ['the main resource', attrs('', 'nobody', csr('example.com/a'), csr('example.com/a'))],
    ['status', attrs('status', 'nobody', csr('example.com/a'), csr('example.com/a'))],
    ['another resource', attrs('approval', 'nobody', csr('example.com/a'), csr('example.com/a'), { resource: 'pods', group: '' })],
    ['a create', attrs('approval', 'nobody', csr('example.com/a'), csr('example.com/a'), { operation: 'CREATE', oldObject: null })],
  ])('leaves %s alone', async (_, a) => {
    expect(await outcome(plugin, a)).toBe('allowed');
  });
});

describe('CertificateSigning', () => {
  const plugin = certificateSigningPlugin(authorizer(GRANTS));
  const issued = { conditions: approved, certificate: 'Q0VSVA==' };
  it.each([
    ['sign on the exact name, certificate set', 'sam', 'example.com/a', { conditions: approved }, issued, 'allowed'],
    ['sign on the wildcard', 'sid', 'example.com/q', { conditions: approved }, issued, 'allowed'],
    ['a Failed condition alone needs no sign', 'nobody', 'example.com/a', { conditions: approved }, { conditions: [...approved, { type: 'Failed', status: 'True' }] }, 'allowed'],
    ['a certificate replaced needs sign', 'nobody', 'example.com/a', issued, { ...issued, certificate: 'T1RIRVI=' }, 'denied'],
    ['the certificate set without sign', 'nobody', 'example.com/a', { conditions: approved }, issued, 'denied'],
    ['approve is not sign', 'ann', 'example.com/a', { conditions: approved }, issued, 'denied'],
    ['sign on another domain', 'ann', 'example.com/a', { conditions: approved }, issued, 'denied'],
    ['the certificate unchanged', 'nobody', 'example.com/a', issued, { ...issued }, 'allowed'],
  ])('%s', async (_, user, signer, oldStatus, newStatus, want) => {
    const got = await outcome(plugin, attrs('status', user, csr(signer, oldStatus), csr(signer, newStatus)));
    expect(got).toBe(want === 'allowed' ? 'allowed' : `403 certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to sign requests with signerName "${signer}"`);
  });

  it('leaves approval and the main resource to others', async () => {
    expect(await outcome(plugin, attrs('approval', 'nobody', csr('example.com/a'), csr('example.com/a', issued)))).toBe('allowed');
    expect(await outcome(plugin, attrs('', 'nobody', csr('example.com/a'), csr('example.com/a', issued)))).toBe('allowed');
  });
});
