// The OpenAPI documents describe exactly what --runtime-config serves:
// a group-version switched on appears in /openapi/v2 and /openapi/v3, one
// switched off vanishes from both, a single resource switched off leaves
// its group-version's documents without it; definitions are closed (every
// reference resolves) and minimal (every definition is reachable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { openapiV3IndexPath } from '../../generated/openapi/index.ts';

type Doc = Record<string, any>;

const servers: Record<string, RunningServer> = {};
beforeAll(async () => {
  for (const [name, runtimeConfig] of [
    ['default', undefined],
    ['v1beta1', 'networking.k8s.io/v1beta1=true'],
    ['off', 'apps/v1=false,batch/v1/cronjobs=false'],
  ] as const)
    servers[name] = await startServer({ authorizationMode: ['AlwaysAllow'], runtimeConfig });
});
afterAll(async () => {
  for (const s of Object.values(servers)) await s.stop();
});

async function get(server: string, path: string): Promise<{ status: number; text: string }> {
  const res = await servers[server].app.request(path);
  return { status: res.status, text: await res.text() };
}
const json = async (server: string, path: string): Promise<Doc> => JSON.parse((await get(server, path)).text);

function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? out.push(x) : refs(x, out);
  return out;
}

/** Definitions reachable from the paths through references. */
function reachable(paths: Doc, schemas: Doc, prefix: string): Set<string> {
  const seen = new Set<string>();
  const stack = refs(paths);
  while (stack.length > 0) {
    const n = stack.pop()!.slice(prefix.length);
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...refs(schemas[n]).filter((r) => r.startsWith(prefix)));
  }
  return seen;
}

function expectClosedAndMinimal(paths: Doc, schemas: Doc, prefix: string): void {
  for (const r of refs({ paths, schemas })) expect(schemas[r.slice(prefix.length)], r).toBeDefined();
  expect(Object.keys(schemas).sort()).toEqual([...reachable(paths, schemas, prefix)].sort());
}

describe('OpenAPI follows --runtime-config', () => {
  it.each(['default', 'v1beta1', 'off'])('%s: v2 and every v3 document are closed and minimal; the index hashes match', async (server) => {
    const v2 = await json(server, '/openapi/v2');
    expectClosedAndMinimal(v2.paths, v2.definitions, '#/definitions/');
    const index = await json(server, '/openapi/v3');
    for (const [key, { serverRelativeURL }] of Object.entries(index.paths as Record<string, { serverRelativeURL: string }>)) {
      const res = await get(server, serverRelativeURL);
      expect(res.status, key).toBe(200);
      expect(serverRelativeURL).toBe(`/openapi/v3/${key}?hash=${createHash('sha512').update(res.text).digest('hex').toUpperCase()}`);
      const doc = JSON.parse(res.text);
      expectClosedAndMinimal(doc.paths, doc.components.schemas, '#/components/schemas/');
    }
  });

  it('networking.k8s.io/v1beta1 on: IPAddress and ServiceCIDR in v2 and v3', async () => {
    const v2 = await json('v1beta1', '/openapi/v2');
    for (const kind of ['IPAddress', 'ServiceCIDR']) expect(v2.definitions[`io.k8s.api.networking.v1beta1.${kind}`], kind).toBeDefined();
    expect(v2.paths['/apis/networking.k8s.io/v1beta1/ipaddresses/{name}'].get['x-kubernetes-group-version-kind']).toEqual({ group: 'networking.k8s.io', version: 'v1beta1', kind: 'IPAddress' });
    expect(v2.paths['/apis/networking.k8s.io/v1beta1/servicecidrs']).toBeDefined();
    const index = await json('v1beta1', '/openapi/v3');
    expect(index.paths['apis/networking.k8s.io/v1beta1']).toBeDefined();
    const v3 = await json('v1beta1', '/openapi/v3/apis/networking.k8s.io/v1beta1');
    expect(v3.components.schemas['io.k8s.api.networking.v1beta1.IPAddress']).toBeDefined();
    expect(v3.paths['/apis/networking.k8s.io/v1beta1/ipaddresses']).toBeDefined();
  });

  it('by default (v1beta1 off) neither document mentions it; the v3 index is the one codegen computed', async () => {
    expect((await get('default', '/openapi/v3')).text).toBe(readFileSync(openapiV3IndexPath, 'utf8'));
    const v2 = await get('default', '/openapi/v2');
    expect(v2.text).not.toContain('networking.k8s.io/v1beta1');
    expect(v2.text).not.toContain('io.k8s.api.networking.v1beta1.');
    expect((await json('default', '/openapi/v3')).paths['apis/networking.k8s.io/v1beta1']).toBeUndefined();
    expect((await get('default', '/openapi/v3/apis/networking.k8s.io/v1beta1')).status).toBe(404);
  });

  it('apps/v1 off: gone from v2, the v3 index, and its v3 document is 404', async () => {
    const v2 = await json('off', '/openapi/v2');
    expect(Object.keys(v2.paths).filter((p) => p.startsWith('/apis/apps/'))).toEqual([]);
    expect(Object.keys(v2.definitions).filter((d) => d.startsWith('io.k8s.api.apps.'))).toEqual([]);
    expect((await json('off', '/openapi/v3')).paths['apis/apps/v1']).toBeUndefined();
    expect((await get('off', '/openapi/v3/apis/apps/v1')).status).toBe(404);
    expect((await get('default', '/openapi/v3/apis/apps/v1')).status).toBe(200);
  });

  it('batch/v1/cronjobs off: batch/v1 keeps Job and loses CronJob in both', async () => {
    const v2 = await json('off', '/openapi/v2');
    expect(Object.keys(v2.paths).filter((p) => p.includes('/cronjobs'))).toEqual([]);
    expect(v2.definitions['io.k8s.api.batch.v1.CronJob']).toBeUndefined();
    expect(v2.definitions['io.k8s.api.batch.v1.Job']).toBeDefined();
    const v3 = await json('off', '/openapi/v3/apis/batch/v1');
    expect(Object.keys(v3.paths).filter((p) => p.includes('/cronjobs'))).toEqual([]);
    expect(v3.paths['/apis/batch/v1/namespaces/{namespace}/jobs/{name}']).toBeDefined();
    expect(v3.components.schemas['io.k8s.api.batch.v1.CronJob']).toBeUndefined();
    const whole = await json('default', '/openapi/v3/apis/batch/v1');
    expect(whole.components.schemas['io.k8s.api.batch.v1.CronJob']).toBeDefined();
  });
});
