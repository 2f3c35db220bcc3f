// Which kubeconfig user a webhook's host:port gets (upstream's
// AuthenticationInfoResolver order), and what each user gives.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateNames, loadCredentialsKubeconfig, parseCredentialsKubeconfig, urlHostPort } from './auth-info.ts';

describe('candidateNames', () => {
  it.each([
    ['hook.example.com:8443', ['hook.example.com:8443', '*.example.com:8443', '*.com:8443']],
    ['websvc.hooks.svc:443', ['websvc.hooks.svc:443', '*.hooks.svc:443', '*.svc:443', 'websvc.hooks.svc', '*.hooks.svc', '*.svc']],
    ['127.0.0.1:9443', ['127.0.0.1:9443', '*.0.0.1:9443', '*.0.1:9443', '*.1:9443']],
    ['hook', ['hook']],
    ['[::1]:443', ['[::1]:443', '::1']],
  ])('%s', (target, names) => {
    expect(candidateNames(target)).toEqual(names);
  });
});

describe('urlHostPort', () => {
  it.each([
    ['https://hook.example.com/x', 'hook.example.com'],
    ['https://hook.example.com:443/x?y', 'hook.example.com:443'],
    ['https://user@10.0.0.1:9443', '10.0.0.1:9443'],
    ['https://[::1]:8443/p', '[::1]:8443'],
  ])('%s', (url, hostPort) => {
    expect(urlHostPort(url)).toEqual(hostPort);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'auth-info-'));
writeFileSync(join(dir, 'token'), ' from-file \n');
const kubeconfig = (users: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'Config', users, ...extra });
const u = (name: string, user: Record<string, unknown>) => ({ name, user });

describe('parseCredentialsKubeconfig', () => {
  const creds = parseCredentialsKubeconfig(
    join(dir, 'kubeconfig'),
    kubeconfig([
      u('exact.example.com:9443', { token: 'exact' }),
      u('*.example.com:9443', { token: 'wild-port' }),
      u('*.hooks.svc', { tokenFile: 'token' }),
      u('basic.example.com', { username: 'ann', password: 'pw' }),
      u('cert.example.com:8443', { 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') }),
    ]),
  );
  it.each([
    ['exact.example.com:9443', { token: 'exact' }],
    ['other.example.com:9443', { token: 'wild-port' }],
    ['websvc.hooks.svc:443', { token: 'from-file' }],
    ['basic.example.com:443', { basicAuth: { username: 'ann', password: 'pw' } }],
    ['cert.example.com:8443', { cert: Buffer.from('CERT'), key: Buffer.from('KEY') }],
    ['nowhere.example.org:443', undefined],
  ])('%s', (target, want) => {
    expect(creds(target)).toEqual(want);
  });

  it('falls back to `*`, then to the current context user', () => {
    const star = parseCredentialsKubeconfig('/k', kubeconfig([u('*', { token: 'star' }), u('me', { token: 'me' })], { 'current-context': 'c', contexts: [{ name: 'c', context: { user: 'me' } }] }));
    expect(star('a.b:1')).toEqual({ token: 'star' });
    const current = parseCredentialsKubeconfig('/k', kubeconfig([u('me', { token: 'me' })], { 'current-context': 'c', contexts: [{ name: 'c', context: { user: 'me' } }] }));
    expect(current('a.b:1')).toEqual({ token: 'me' });
  });

  it('refuses auth providers and a missing file, and a token file that cannot be read when asked', () => {
    expect(() => parseCredentialsKubeconfig('/k', kubeconfig([u('*', { 'auth-provider': { name: 'gcp' } })]))).toThrow('auth provider not supported');
    expect(() => loadCredentialsKubeconfig(join(dir, 'missing'))).toThrow(`open ${join(dir, 'missing')}: no such file or directory`);
    const broken = parseCredentialsKubeconfig(join(dir, 'k'), kubeconfig([u('*', { tokenFile: 'nope' })]));
    expect(() => broken('x:1')).toThrow(`open ${join(dir, 'nope')}: no such file or directory`);
  });
});
