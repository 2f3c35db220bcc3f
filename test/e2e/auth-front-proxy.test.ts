// End-to-end: the front proxy (--requestheader-client-ca-file,
// --requestheader-allowed-names) with real TLS connections: the X-Remote-*
// headers count only with a proxy certificate of the proxy CA whose CN is
// allowed; the kube-system/extension-apiserver-authentication ConfigMap
// publishes the configuration. And --authentication-config restricting
// anonymous requests to listed paths (with the start-up refusal when
// --anonymous-auth is given too).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_FLAG_CONFLICT } from '../../runtime/auth/authn-config.ts';
import { createCA, issueCertificate, type KeyPairPEM } from '../../runtime/auth/pki/certs.ts';
import { adminCredentials, kubeconfigServerURL, SELF_SUBJECT_REVIEW, SELF_SUBJECT_REVIEW_PATH, serverCA, tlsRequest } from '../support/auth-clients.ts';
import { kubectlFor, ok } from '../support/kubectl.ts';
import { runCliToExit, startServerProcess, type ServerProcess } from '../support/server-process.ts';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'auth-proxy-'));
});

describe('the front proxy', () => {
  let server: ServerProcess;
  let url: string;
  let ca: string;
  let proxyCA: KeyPairPEM;
  let proxy: KeyPairPEM;
  let stranger: KeyPairPEM;
  let admin: KeyPairPEM;
  const proxied = { 'X-Remote-User': 'carol', 'X-Remote-Group': 'g', 'X-Remote-Extra-Scopes': 'a' };

  beforeAll(async () => {
    proxyCA = await createCA('front-proxy-ca');
    proxy = await issueCertificate(proxyCA, { commonName: 'front-proxy', usage: 'client', validityDays: 1 });
    stranger = await issueCertificate(proxyCA, { commonName: 'other-proxy', usage: 'client', validityDays: 1 });
    const proxyCAFile = join(dir, 'front-proxy-ca.crt');
    writeFileSync(proxyCAFile, proxyCA.certPEM);
    server = await startServerProcess(['--requestheader-client-ca-file', proxyCAFile, '--requestheader-allowed-names=front-proxy']);
    url = kubeconfigServerURL(server);
    ca = serverCA(server).certPEM;
    admin = adminCredentials(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const review = (client: KeyPairPEM | undefined, headers: Record<string, string> = proxied) =>
    tlsRequest(`${url}${SELF_SUBJECT_REVIEW_PATH}`, {
      ca,
      client,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: SELF_SUBJECT_REVIEW,
    });

  it('a proxy certificate with an allowed CN: the headers name the user', async () => {
    const r = await review(proxy);
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({ username: 'carol', groups: ['g', 'system:authenticated'], extra: { scopes: ['a'] } });
  });

  it('a proxy certificate whose CN is not allowed is not trusted (and is no client certificate: 401)', async () => {
    const r = await review(stranger);
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('without a certificate the headers are ignored: the request is anonymous', async () => {
    const r = await review(undefined);
    // anonymous may not create SelfSubjectReviews under the default authorization: the 403 names the user
    expect(r.status).toBe(403);
    expect(r.json.message).toContain('User "system:anonymous" cannot create resource "selfsubjectreviews"');
    const list = await tlsRequest(`${url}/api/v1/namespaces`, { ca, headers: proxied });
    expect(list.status).toBe(403);
    expect(list.json.message).toContain('User "system:anonymous"');
  });

  it('with the admin certificate the headers are ignored: the request is the admin', async () => {
    const r = await review(admin);
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('kube-system/extension-apiserver-authentication publishes the configuration', async () => {
    const cm = JSON.parse(
      ok(
        await kubectlFor(server.kubeconfig)(['get', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '-o', 'json'], {
          env: { HOME: mkdtempSync(join(tmpdir(), 'kubectl-home-')) },
        }),
      ),
    );
    expect(cm.data['client-ca-file']).toBe(ca);
    expect(cm.data['requestheader-client-ca-file']).toBe(proxyCA.certPEM);
    expect(cm.data['requestheader-allowed-names']).toBe('["front-proxy"]');
    expect(cm.data['requestheader-username-headers']).toBe('["X-Remote-User"]');
    expect(cm.data['requestheader-group-headers']).toBe('["X-Remote-Group"]');
    expect(cm.data['requestheader-extra-headers-prefix']).toBe('["X-Remote-Extra-"]');
  });
});

describe('--authentication-config with anonymous conditions', () => {
  let server: ServerProcess;
  let url: string;
  let ca: string;
  let config: string;

  beforeAll(async () => {
    config = join(dir, 'authn.yaml');
    writeFileSync(config, ['apiVersion: apiserver.config.k8s.io/v1beta1', 'kind: AuthenticationConfiguration', 'anonymous:', '  enabled: true', '  conditions:', '  - path: /livez', ''].join('\n'));
    server = await startServerProcess(['--authentication-config', config]);
    url = kubeconfigServerURL(server);
    ca = serverCA(server).certPEM;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('anonymous may reach only the listed path', async () => {
    expect((await tlsRequest(`${url}/livez`, { ca })).status).toBe(200);
    const v = await tlsRequest(`${url}/version`, { ca });
    expect(v.status).toBe(401);
    expect(v.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('with --anonymous-auth=true as well the server refuses to start', async () => {
    const r = await runCliToExit(['--data-dir', join(dir, 'refused'), '--secure-port', '0', '--authentication-config', config, '--anonymous-auth=true']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(ANONYMOUS_FLAG_CONFLICT);
  });
});
