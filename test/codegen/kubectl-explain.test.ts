// `kubectl explain` (the real kubectl 1.31) works from the generated OpenAPI
// v3 documents: a throw-away HTTP server on 127.0.0.1 serves discovery
// (built from generated/registry.ts) and generated/openapi, nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { resources } from '../../generated/registry.ts';
import { openapiV3Documents, openapiV3IndexPath } from '../../generated/openapi/index.ts';
import { ensureClients } from '../support/clients.ts';
import { osTempDir } from './helpers.ts';

const run = promisify(execFile);
const enabled = resources.filter((r) => r.enabledByDefault);

function discovery(path: string): unknown {
  const gvs = [...new Set(enabled.map((r) => `${r.group}/${r.version}`))];
  if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
  if (path === '/apis') {
    const groups = [...new Set(enabled.filter((r) => r.group !== '').map((r) => r.group))].sort();
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: groups.map((g) => {
        const versions = gvs.filter((x) => x.startsWith(`${g}/`)).map((x) => ({ groupVersion: x, version: x.split('/')[1] }));
        const pref = enabled.find((r) => r.group === g && r.preferredVersion) ?? enabled.find((r) => r.group === g)!;
        return { name: g, versions, preferredVersion: { groupVersion: `${g}/${pref.version}`, version: pref.version } };
      }),
    };
  }
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (!m) return undefined;
  const group = m[2] ?? '';
  const version = m[1] ?? m[3];
  const rs = enabled.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: rs.map((r) => ({ name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs, shortNames: r.shortNames, categories: r.categories })),
  };
}

describe.skipIf(!enabled.some((r) => r.kind === 'Deployment'))('kubectl explain from the generated documents', () => {
  let server: Server;
  let kubeconfig: string;
  const t = osTempDir('cg-explain');
  let kubectl: string;

  beforeAll(async () => {
    kubectl = ensureClients().kubectl;
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body: string | undefined;
      if (url.pathname === '/openapi/v3') body = readFileSync(openapiV3IndexPath, 'utf8');
      else if (url.pathname.startsWith('/openapi/v3/')) {
        const doc = openapiV3Documents[url.pathname.slice('/openapi/v3/'.length)];
        if (doc) body = readFileSync(doc.path, 'utf8');
      } else {
        const d = discovery(url.pathname);
        if (d) body = JSON.stringify(d);
      }
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","status":"Failure","code":404,"reason":"NotFound"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    kubeconfig = join(t.dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    t.cleanup();
  });

  it.each([
    ['deployments.spec.replicas', /replicas\s+<integer>/, /KIND:\s+Deployment/],
    ['pods.spec.containers.ports', /FIELD:\s+ports\s+<\[\]ContainerPort>/, /VERSION:\s+v1/],
    ['runtimeclasses', /KIND:\s+RuntimeClass/, /handler\s+<string> -required-/],
  ])('explain %s', async (what, a, b) => {
    const { stdout } = await run(kubectl, ['--kubeconfig', kubeconfig, 'explain', what], { timeout: 30_000, env: { ...process.env, KUBECACHEDIR: join(t.dir, 'cache') } });
    expect(stdout).toMatch(a);
    expect(stdout).toMatch(b);
  });
});
