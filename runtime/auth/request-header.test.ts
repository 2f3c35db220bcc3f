// Tests of the front-proxy authenticator (headers trusted only behind a verified, allowed proxy certificate) and the extension-apiserver-authentication data.

import { describe, expect, it } from 'vitest';
import type { PeerCertificate } from './authenticator.ts';
import { authRequestFromPairs } from './header-list.ts';
import { extensionApiserverAuthenticationData, RequestHeaderAuthenticator, validateRequestHeaderOptions, type RequestHeaderOptions } from './request-header.ts';

// Certificates are opaque to this module: the first byte says which the fake verifier accepts.
const PROXY: PeerCertificate = { raw: Uint8Array.of(1), intermediates: [] };
const OTHER_PROXY: PeerCertificate = { raw: Uint8Array.of(2), intermediates: [] };
const UNTRUSTED: PeerCertificate = { raw: Uint8Array.of(9), intermediates: [] };
const verifyProxyCertificate = (c: PeerCertificate) => (c.raw[0] === 1 ? { commonName: 'front-proxy-client' } : c.raw[0] === 2 ? { commonName: 'other' } : undefined);

type Row = [string, Partial<RequestHeaderOptions>, PeerCertificate | undefined, [string, string][], unknown];

describe('RequestHeaderAuthenticator', () => {
  const rows: Row[] = [
    [
      'defaults: user, groups, extra',
      {},
      PROXY,
      [
        ['X-Remote-User', 'alice'],
        ['X-Remote-Group', 'dev'],
        ['x-remote-group', 'ops'],
        ['X-Remote-Extra-Scopes', 'a'],
        ['X-Remote-Extra-Scopes', 'b'],
      ],
      { user: { name: 'alice', groups: ['dev', 'ops'], extra: { scopes: ['a', 'b'] } } },
    ],
    ['no certificate: headers ignored', {}, undefined, [['X-Remote-User', 'alice']], undefined],
    [
      'a certificate that does not verify: headers ignored',
      {},
      UNTRUSTED,
      [
        ['X-Remote-User', 'admin'],
        ['X-Remote-Group', 'system:masters'],
      ],
      undefined,
    ],
    ['allowed names: a CN not listed is ignored', { allowedNames: ['front-proxy-client'] }, OTHER_PROXY, [['X-Remote-User', 'alice']], undefined],
    ['allowed names: a listed CN', { allowedNames: ['x', 'front-proxy-client'] }, PROXY, [['X-Remote-User', 'alice']], { user: { name: 'alice', groups: [] } }],
    ['empty allowed names: any CN', { allowedNames: [] }, OTHER_PROXY, [['X-Remote-User', 'alice']], { user: { name: 'alice', groups: [] } }],
    ['a proxy without a user header: not ours', {}, PROXY, [['X-Remote-Group', 'dev']], undefined],
    ['an empty user header: not ours', {}, PROXY, [['X-Remote-User', '']], undefined],
    [
      'the first non-empty of several username headers',
      { usernameHeaders: ['X-User', 'X-Remote-User'] },
      PROXY,
      [
        ['X-Remote-User', 'second'],
        ['X-User', ''],
      ],
      { user: { name: 'second', groups: [] } },
    ],
    [
      'username header order decides',
      { usernameHeaders: ['X-User', 'X-Remote-User'] },
      PROXY,
      [
        ['X-Remote-User', 'second'],
        ['X-User', 'first'],
      ],
      { user: { name: 'first', groups: [] } },
    ],
    [
      'uid headers',
      { uidHeaders: ['X-Remote-Uid'] },
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Uid', '42'],
      ],
      { user: { name: 'a', uid: '42', groups: [] } },
    ],
    [
      'uid headers not configured: ignored',
      {},
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Uid', '42'],
      ],
      { user: { name: 'a', groups: [] } },
    ],
    [
      'empty group values dropped, comma-joined values kept whole',
      {},
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Group', ''],
        ['X-Remote-Group', 'g1,g2'],
      ],
      { user: { name: 'a', groups: ['g1,g2'] } },
    ],
    [
      'several group headers in flag order',
      { groupHeaders: ['X-G2', 'X-G1'] },
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-G1', 'one'],
        ['X-G2', 'two'],
      ],
      { user: { name: 'a', groups: ['two', 'one'] } },
    ],
    [
      'extra keys lower-cased and percent-decoded',
      {},
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Extra-Example.com%2fScope', 'x'],
        ['X-Remote-Extra-%E4%B8%AD', 'y'],
      ],
      { user: { name: 'a', groups: [], extra: { 'example.com/scope': ['x'], 中: ['y'] } } },
    ],
    [
      'malformed percent-encoding kept as sent (lower-cased), as upstream',
      {},
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Extra-Bad%zZ', 'x'],
        ['X-Remote-Extra-%FF', 'y'],
      ],
      { user: { name: 'a', groups: [], extra: { 'bad%zz': ['x'], '%ff': ['y'] } } },
    ],
    [
      'extra values are not filtered',
      {},
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Extra-K', ''],
      ],
      { user: { name: 'a', groups: [], extra: { k: [''] } } },
    ],
    [
      'several prefixes',
      { extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Other-'] },
      PROXY,
      [
        ['X-Remote-User', 'a'],
        ['X-Other-K', '2'],
        ['X-Remote-Extra-K', '1'],
      ],
      { user: { name: 'a', groups: [], extra: { k: ['1', '2'] } } },
    ],
  ];
  it.each(rows)('%s', async (_name, opts, cert, headers, want) => {
    const a = new RequestHeaderAuthenticator({ verifyProxyCertificate, ...opts });
    expect(await a.authenticate(authRequestFromPairs(headers, '/api', cert))).toEqual(want);
  });

  it('names the headers the chain must strip once it authenticated', () => {
    const a = new RequestHeaderAuthenticator({ verifyProxyCertificate, uidHeaders: ['X-Remote-Uid'] });
    const req = authRequestFromPairs(
      [
        ['X-Remote-User', 'a'],
        ['X-Remote-Uid', '1'],
        ['X-Remote-Group', 'g'],
        ['X-Remote-Extra-K', 'v'],
        ['Accept', 'x'],
        ['Authorization', 'Bearer t'],
      ],
      '/',
      PROXY,
    );
    expect(a.headersToStrip(req)).toEqual(['x-remote-user', 'x-remote-uid', 'x-remote-group', 'x-remote-extra-k']);
  });
});

describe('validateRequestHeaderOptions', () => {
  it.each([
    [{}, []],
    [{ usernameHeaders: ['X-Remote-User'], allowedNames: ['a'] }, []],
    [{ usernameHeaders: [' '] }, ['empty value in "requestheader-username-headers"']],
    [{ allowedNames: [''], extraHeaderPrefixes: [''] }, ['empty value in "requestheader-extra-headers-prefix"', 'empty value in "requestheader-allowed-names"']],
  ] as [Omit<RequestHeaderOptions, 'verifyProxyCertificate'>, string[]][])('%j', (o, want) => {
    expect(validateRequestHeaderOptions(o)).toEqual(want);
  });
});

describe('extensionApiserverAuthenticationData', () => {
  const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const PCA = '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n';
  it.each([
    ['nothing configured', {}, {}],
    ['client CA only', { clientCA: CA }, { 'client-ca-file': CA }],
    ['request-header settings without their CA are not written', { requestHeaderUsernameHeaders: ['X-Remote-User'] }, {}],
    [
      'full front-proxy configuration',
      {
        clientCA: CA,
        requestHeaderClientCA: PCA,
        requestHeaderAllowedNames: ['front-proxy-client'],
        requestHeaderUsernameHeaders: ['X-Remote-User'],
        requestHeaderUIDHeaders: [],
        requestHeaderGroupHeaders: ['X-Remote-Group'],
        requestHeaderExtraHeaderPrefixes: ['X-Remote-Extra-'],
      },
      {
        'client-ca-file': CA,
        'requestheader-client-ca-file': PCA,
        'requestheader-allowed-names': '["front-proxy-client"]',
        'requestheader-username-headers': '["X-Remote-User"]',
        'requestheader-uid-headers': '[]',
        'requestheader-group-headers': '["X-Remote-Group"]',
        'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      },
    ],
    [
      'lists not given are null, as Go marshals a nil slice; <>& escaped as Go does',
      {
        requestHeaderClientCA: PCA,
        requestHeaderAllowedNames: ['a<b>&c'],
      },
      {
        'requestheader-client-ca-file': PCA,
        'requestheader-allowed-names': '["a\\u003cb\\u003e\\u0026c"]',
        'requestheader-username-headers': 'null',
        'requestheader-uid-headers': 'null',
        'requestheader-group-headers': 'null',
        'requestheader-extra-headers-prefix': 'null',
      },
    ],
  ])('%s', (_name, input, want) => {
    expect(extensionApiserverAuthenticationData(input)).toEqual(want);
  });
});
