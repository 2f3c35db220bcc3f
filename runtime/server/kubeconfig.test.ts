// The hand-written kubeconfig reads back (as YAML, the way kubectl and
// client-node read it) as exactly the document it describes, whatever the
// names, tokens and server URL hold.

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigYAML, type KubeconfigOptions } from './kubeconfig.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function expected(o: KubeconfigOptions) {
  const name = o.name ?? 'specserver';
  const cluster: Record<string, unknown> = { server: o.server };
  if (o.caPEM) cluster['certificate-authority-data'] = b64(o.caPEM);
  if (o.server.startsWith('http:')) cluster['insecure-skip-tls-verify'] = true;
  const user: Record<string, unknown> = {};
  if (o.clientCertPEM && o.clientKeyPEM) {
    user['client-certificate-data'] = b64(o.clientCertPEM);
    user['client-key-data'] = b64(o.clientKeyPEM);
  }
  if (o.token) user.token = o.token;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name: `${name}-admin`, user }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin`, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  };
}

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBcDCCARagAwIBAgIQ\n-----END CERTIFICATE-----\n';

describe('kubeconfigYAML', () => {
  it.each<[string, KubeconfigOptions]>([
    ['TLS with the admin certificate', { server: 'https://127.0.0.1:6443', caPEM: PEM, clientCertPEM: PEM, clientKeyPEM: PEM }],
    ['plain HTTP without credentials', { server: 'http://127.0.0.1:8080' }],
    ['an IPv6 server and a token', { server: 'https://[::1]:6443', token: 'abc.def-123' }],
    ['a token YAML would read as a boolean', { server: 'http://localhost:1', token: 'yes' }],
    ['a token YAML would read as a number', { server: 'http://localhost:1', token: '0x1F' }],
    ['a token YAML would read as null', { server: 'http://localhost:1', token: '~' }],
    ['a token with quotes, colons and a backslash', { server: 'http://localhost:1', token: 'a: "b" \\ c # d' }],
    ['a name with spaces and non-ASCII', { server: 'https://h:1', name: 'my cluster é' }],
    ['a name starting with a dash', { server: 'https://h:1', name: '-x' }],
    ['a numeric name', { server: 'https://h:1', name: '123' }],
    ['a token ending in a colon', { server: 'https://h:1', token: 'abc:' }],
    ['a token with a colon and a hash', { server: 'https://h:1', token: 'a:b#c' }],
    ['a token starting with an indicator', { server: 'https://h:1', token: '[x]' }],
    ['a server URL with a query and a percent sign', { server: 'https://h:1/p?a=b%20c&d' }],
  ])('%s reads back as the document', (_, o) => {
    expect(parse(kubeconfigYAML(o))).toEqual(expected(o));
  });

  it('keeps the layout kubectl users know', () => {
    expect(kubeconfigYAML({ server: 'http://127.0.0.1:8080' }).split('\n').slice(0, 6)).toEqual([
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '  - name: specserver',
      '    cluster:',
      '      server: http://127.0.0.1:8080',
    ]);
  });
});
