// Tests of the webhook kubeconfig reader: current context, inline and file credentials, refusals that quote no secret.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from '../file-error.ts';
import { loadWebhookKubeconfig, parseWebhookKubeconfig } from './kubeconfig.ts';

const dir = mkdtempSync(join(tmpdir(), 'webhook-kc-'));
writeFileSync(join(dir, 'ca.pem'), 'CA-PEM');
writeFileSync(join(dir, 'client.pem'), 'CLIENT-PEM');
writeFileSync(join(dir, 'client-key.pem'), 'KEY-PEM');
writeFileSync(join(dir, 'token'), 'file-token\n');
const PATH = join(dir, 'webhook.kubeconfig');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function kc(cluster: Record<string, unknown>, user: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'webhook',
    clusters: [
      { name: 'other', cluster: { server: 'https://wrong.example' } },
      { name: 'authn', cluster },
    ],
    users: [{ name: 'apiserver', user }],
    contexts: [{ name: 'webhook', context: { cluster: 'authn', user: 'apiserver' } }],
    ...extra,
  });
}

describe('parseWebhookKubeconfig', () => {
  const ok: [string, string, Record<string, unknown>][] = [
    ['a plain http server', kc({ server: 'http://127.0.0.1:8080/authenticate' }), { insecureSkipTLSVerify: false }],
    [
      'inline CA and client certificate',
      kc({ server: 'https://authn.example/review', 'certificate-authority-data': b64('CA-PEM') }, { 'client-certificate-data': b64('CLIENT-PEM'), 'client-key-data': b64('KEY-PEM') }),
      { ca: Buffer.from('CA-PEM'), cert: Buffer.from('CLIENT-PEM'), key: Buffer.from('KEY-PEM'), insecureSkipTLSVerify: false },
    ],
    [
      'files relative to the kubeconfig',
      kc({ server: 'https://authn.example', 'certificate-authority': 'ca.pem' }, { 'client-certificate': 'client.pem', 'client-key': join(dir, 'client-key.pem') }),
      { ca: Buffer.from('CA-PEM'), cert: Buffer.from('CLIENT-PEM'), key: Buffer.from('KEY-PEM') },
    ],
    ['a token and a server name', kc({ server: 'https://10.0.0.1', 'tls-server-name': 'authn.example' }, { token: 'tok' }), { token: 'tok', tlsServerName: 'authn.example' }],
    ['a token file', kc({ server: 'https://authn.example' }, { tokenFile: 'token' }), { token: 'file-token' }],
    ['insecure', kc({ server: 'https://authn.example', 'insecure-skip-tls-verify': true }), { insecureSkipTLSVerify: true }],
    [
      'YAML',
      `apiVersion: v1
kind: Config
current-context: c
clusters:
- name: k
  cluster:
    server: https://authn.example/x
contexts:
- name: c
  context: {cluster: k}
`,
      { insecureSkipTLSVerify: false },
    ],
  ];
  it.each(ok)('%s', (_name, text, want) => {
    const cfg = parseWebhookKubeconfig(PATH, text);
    expect(cfg).toMatchObject(want);
    expect(cfg.server).toBeInstanceOf(URL);
  });
  it('keeps the server URL with its path', () => {
    expect(parseWebhookKubeconfig(PATH, kc({ server: 'https://authn.example:8443/a/b?x=1' })).server.href).toBe('https://authn.example:8443/a/b?x=1');
  });

  const bad: [string, string, string][] = [
    ['not YAML', 'a: [', 'not valid YAML'],
    ['a list', '- 1', 'no configuration has been provided'],
    ['no current context', kc({ server: 'https://a' }, {}, { 'current-context': '' }), 'no current-context is set'],
    ['a missing context', kc({ server: 'https://a' }, {}, { 'current-context': 'nope' }), 'context "nope" not found'],
    ['a missing cluster', kc({ server: 'https://a' }, {}, { clusters: [] }), 'cluster "authn" not found'],
    ['no server', kc({}), 'cluster "authn" has no server defined'],
    ['a bad server URL', kc({ server: 'not a url' }), 'cluster "authn" has an invalid server URL'],
    ['a non-HTTP server', kc({ server: 'ftp://a' }), 'cluster "authn" server must be an http or https URL'],
    [
      'a CA with insecure',
      kc({ server: 'https://a', 'insecure-skip-tls-verify': true, 'certificate-authority-data': b64('x') }),
      'specifying a root certificates file with the insecure flag is not allowed',
    ],
    ['a certificate without a key', kc({ server: 'https://a' }, { 'client-certificate-data': b64('x') }), 'client-certificate and client-key must be given together'],
    ['bad base64', kc({ server: 'https://a', 'certificate-authority-data': '%%%' }), 'certificate-authority-data is not valid base64'],
    ['a missing CA file', kc({ server: 'https://a', 'certificate-authority': 'missing.pem' }), `unable to read certificate-authority ${join(dir, 'missing.pem')}: ENOENT`],
    [
      'both data and file',
      kc({ server: 'https://a', 'certificate-authority': 'ca.pem', 'certificate-authority-data': b64('x') }),
      'certificate-authority-data and certificate-authority are both specified for authn',
    ],
    ['insecure not a bool', kc({ server: 'https://a', 'insecure-skip-tls-verify': 'yes' }), 'insecure-skip-tls-verify must be a boolean'],
  ];
  it.each(bad)('refuses %s', (_name, text, message) => {
    let caught: unknown;
    try {
      parseWebhookKubeconfig(PATH, text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FileError);
    expect((caught as FileError).message).toContain(`invalid webhook configuration file "${PATH}": ${message}`);
  });

  it('never quotes a token or key in an error', () => {
    const text = kc({ server: 'https://a' }, { 'client-key-data': b64('SECRET-KEY'), token: 'SECRET-TOKEN' });
    expect(() => parseWebhookKubeconfig(PATH, text)).toThrow(FileError);
    try {
      parseWebhookKubeconfig(PATH, text);
    } catch (err) {
      expect((err as Error).message).not.toMatch(/SECRET|U0VDUkVU/);
    }
  });

  it('loads from disk; a missing file is a FileError', () => {
    writeFileSync(PATH, kc({ server: 'https://authn.example' }));
    expect(loadWebhookKubeconfig(PATH).server.host).toBe('authn.example');
    expect(() => loadWebhookKubeconfig(join(dir, 'none'))).toThrow(FileError);
  });
});
