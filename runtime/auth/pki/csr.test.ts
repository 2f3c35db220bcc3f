// The PKCS#10 reader against requests of our test writer and of another implementation (RSA, IPv6 and URI names), and malformed input.

import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { makeCSR } from '../../../test/support/csr.ts';
import { CSRError, oidText, parseCertificateRequest, pemRequestDER } from './csr.ts';
import { oid } from './der.ts';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

describe('oidText', () => {
  it.each(['2.5.4.3', '1.2.840.113549.1.9.14', '1.3.6.1.4.1.311.10.3.3', '2.16.840.1.113730.4.1'])('%s', (dotted) => {
    const der = oid(dotted);
    expect(oidText(der.subarray(2))).toBe(dotted);
  });
});

describe('parseCertificateRequest', () => {
  it('reads subject, names and verifies an ECDSA request', () => {
    const { csrPEM } = makeCSR({ commonName: 'system:node:n1', organizations: ['system:nodes', 'b'], dnsNames: ['n1.example.com'], ips: ['10.0.0.1'], emails: ['a@example.com'] });
    const r = parseCertificateRequest(csrPEM);
    expect(r).toMatchObject({
      commonName: 'system:node:n1',
      organizations: ['system:nodes', 'b'],
      dnsNames: ['n1.example.com'],
      ipAddresses: ['10.0.0.1'],
      emailAddresses: ['a@example.com'],
      uris: [],
    });
    expect(r.signatureError()).toBeUndefined();
    expect(r.publicKey.asymmetricKeyType).toBe('ec');
  });

  it('reads an RSA request with IPv6 and URI names made by another implementation', async () => {
    const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
    const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({
      name: 'CN=bob, O=team',
      keys: keys as CryptoKeyPair,
      signingAlgorithm: alg,
      extensions: [
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '2001:db8::1' },
          { type: 'url', value: 'spiffe://td/x' },
        ]),
      ],
    });
    const r = parseCertificateRequest(csr.toString('pem'));
    expect(r).toMatchObject({ commonName: 'bob', organizations: ['team'], ipAddresses: ['2001:db8::1'], uris: ['spiffe://td/x'] });
    expect(r.signatureError()).toBeUndefined();
  });

  it('reports a signature that does not verify', () => {
    expect(parseCertificateRequest(makeCSR({ commonName: 'x', tamper: true }).csrPEM).signatureError()).toBe('x509: ECDSA verification failure');
  });

  it.each([
    ['no PEM', 'hello', 'PEM block type must be CERTIFICATE REQUEST'],
    ['another block', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'PEM block type must be CERTIFICATE REQUEST'],
    ['not DER', '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n', 'x509: malformed certificate request'],
    [
      'truncated',
      `-----BEGIN CERTIFICATE REQUEST-----\n${pemRequestDER(makeCSR({ commonName: 'x' }).csrPEM)
        .subarray(0, 40)
        .toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`,
      'x509: malformed certificate request',
    ],
  ])('%s', (_name, pem, msg) => {
    expect(() => parseCertificateRequest(pem)).toThrow(new CSRError(msg));
  });
});
