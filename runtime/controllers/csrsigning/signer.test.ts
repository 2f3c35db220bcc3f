// The csrsigning rules per signer, durations and validity, and certificates signed for requests (checked with node:crypto).

import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCSR } from '../../../test/support/csr.ts';
import { createCA } from '../../auth/pki/certs.ts';
import { parseCertificateRequest } from '../../auth/pki/csr.ts';
import { apiServerClientError, kubeletServingError, signCSR, signingDuration, validity, wantsSigning } from './signer.ts';

const H = 3600_000;

describe('apiServerClientError', () => {
  it.each([
    [['client auth'], undefined],
    [['digital signature', 'key encipherment', 'client auth'], undefined],
    [['digital signature'], 'missing required usage for client certificate: client auth'],
    [['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
  ])('%j', (usages, want) => expect(apiServerClientError(usages)).toBe(want));
});

describe('kubeletServingError', () => {
  const node = { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'] };
  const serving = ['digital signature', 'key encipherment', 'server auth'];
  it.each([
    ['good', node, serving, undefined],
    ['good without key encipherment', node, ['digital signature', 'server auth'], undefined],
    ['organization', { ...node, organizations: ['system:nodes', 'x'] }, serving, 'subject organization is not system:nodes'],
    ['no SAN', { ...node, dnsNames: [] }, serving, 'DNS or IP subjectAltName is required'],
    ['email SAN', { ...node, emails: ['a@b.c'] }, serving, 'Email subjectAltNames are not allowed'],
    ['usages', node, ['server auth'], 'usages did not match [digital signature key encipherment server auth]'],
    ['common name', { ...node, commonName: 'n1' }, serving, "subject common name does not begin with 'system:node:'"],
  ])('%s', (_name, subject, usages, want) => {
    expect(kubeletServingError(parseCertificateRequest(makeCSR(subject).csrPEM), usages)).toBe(want);
  });
});

describe('signingDuration and validity', () => {
  it.each([
    [undefined, 8760 * H],
    [3600, H],
    [60, 10 * 60_000],
    [100 * 365 * 24 * 3600, 8760 * H],
  ])('expirationSeconds %s', (seconds, want) => expect(signingDuration(seconds, 8760 * H)).toBe(want));

  it.each([
    [H, -5 * 60_000, H],
    [24 * H, -5 * 60_000, 24 * H - 5 * 60_000],
  ])('duration %d ms', (duration, before, after) => {
    expect(validity(1_000_000_000_000, duration)).toEqual({ notBefore: 1_000_000_000_000 + before, notAfter: 1_000_000_000_000 + after });
  });
});

describe('signCSR', () => {
  const now = Date.parse('2026-01-02T03:04:05Z');
  const approved = (spec: object, status: object = { conditions: [{ type: 'Approved', status: 'True' }] }) => ({ spec, status });

  it('wants only approved, unfailed, unissued requests of its signers', () => {
    const spec = { signerName: 'kubernetes.io/kube-apiserver-client' };
    expect(wantsSigning(approved(spec))).toBe(true);
    expect(wantsSigning(approved({ signerName: 'example.com/x' }))).toBe(false);
    expect(wantsSigning(approved(spec, { conditions: [{ type: 'Denied', status: 'True' }] }))).toBe(false);
    expect(
      wantsSigning(
        approved(spec, {
          conditions: [
            { type: 'Approved', status: 'True' },
            { type: 'Failed', status: 'True' },
          ],
        }),
      ),
    ).toBe(false);
    expect(wantsSigning(approved(spec, { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'eA==' }))).toBe(false);
  });

  it('signs a kubelet serving certificate with its names, usages and the capped duration', async () => {
    const ca = await createCA('test-ca', 3650, now);
    const csr = makeCSR({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.example.com'], ips: ['10.0.0.7'] });
    const out = signCSR(
      { spec: { signerName: 'kubernetes.io/kubelet-serving', request: csr.request, usages: ['digital signature', 'key encipherment', 'server auth'], expirationSeconds: 10 * 365 * 24 * 3600 } },
      { ca, durationMs: 48 * H, now: () => now },
    );
    if (!('certificatePEM' in out)) throw new Error(out.failure);
    const cert = new X509Certificate(out.certificatePEM);
    const caCert = new X509Certificate(ca.certPEM);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:n1.example.com, IP Address:10.0.0.7');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(Date.parse(cert.validFrom)).toBe(now - 5 * 60_000);
    expect(Date.parse(cert.validTo)).toBe(now + 48 * H - 5 * 60_000);
  });

  it('refuses what the signer does not allow', async () => {
    const ca = await createCA('test-ca', 3650, now);
    const csr = makeCSR({ commonName: 'n1', organizations: ['system:nodes'], dnsNames: ['n1'] });
    const out = signCSR({ spec: { signerName: 'kubernetes.io/kubelet-serving', request: csr.request, usages: ['digital signature', 'server auth'] } }, { ca, now: () => now });
    expect(out).toEqual({ failure: "subject common name does not begin with 'system:node:'" });
  });
});
