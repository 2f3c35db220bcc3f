// Local APIServices: one per served group-version with upstream's
// priorities and Available=True; none for a group-version turned off by
// --runtime-config (also after a restart on the same data); discovery
// (legacy and aggregated) ordered by them and reordered when they change.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prioritiesOf } from '../../runtime/builtins/apiservices.ts';
import { Discovery } from '../../runtime/http/discovery.ts';
import type { RunningServer } from '../../runtime/index.ts';
import { call, server, until } from './helpers.ts';

const AS = '/apis/apiregistration.k8s.io/v1/apiservices';
const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

async function groupNames(srv: RunningServer): Promise<string[]> {
  return (await call(srv, 'GET', '/apis')).body.groups.map((g: any) => g.name);
}

async function aggregatedNames(srv: RunningServer): Promise<string[]> {
  const res = await srv.app.request('/apis', { headers: { Accept: AGG } });
  return (await res.json()).items.map((g: any) => g.metadata.name);
}

describe('local APIServices', () => {
  it.each([
    ['v1.', '', 'v1', 18000, 1],
    ['v1.apps', 'apps', 'v1', 17800, 15],
    ['v1.batch', 'batch', 'v1', 17400, 15],
    ['v2.autoscaling', 'autoscaling', 'v2', 17500, 30],
    ['v1.flowcontrol.apiserver.k8s.io', 'flowcontrol.apiserver.k8s.io', 'v1', 16100, 21],
    ['v1beta3.flowcontrol.apiserver.k8s.io', 'flowcontrol.apiserver.k8s.io', 'v1beta3', 16100, 18],
    ['v1.apiregistration.k8s.io', 'apiregistration.k8s.io', 'v1', 18000, 15],
  ])('%s', async (name, group, version, gp, vp) => {
    const r = await call(s, 'GET', `${AS}/${name}`);
    expect(r.code, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec).toEqual({ group, version, groupPriorityMinimum: gp, versionPriority: vp });
    expect(r.body.spec.service).toBeUndefined();
    expect(r.body.status.conditions).toEqual([expect.objectContaining({ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' })]);
  });

  it('none for a group-version not served', async () => {
    expect((await call(s, 'GET', `${AS}/v1beta1.networking.k8s.io`)).code).toBe(404);
    const names = (await call(s, 'GET', AS)).body.items.map((a: any) => a.metadata.name);
    expect(names).toContain('v1.networking.k8s.io');
    expect(names).not.toContain('v1beta1.networking.k8s.io');
  });

  it('legacy and aggregated /apis follow group priority, then name', async () => {
    const legacy = await groupNames(s);
    const upstream = [
      'apiregistration.k8s.io',
      'apps',
      'events.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'autoscaling',
      'batch',
      'certificates.k8s.io',
      'networking.k8s.io',
      'policy',
      'rbac.authorization.k8s.io',
      'storage.k8s.io',
    ].filter((g) => legacy.includes(g));
    expect(legacy.slice(0, upstream.length)).toEqual(upstream);
    expect(legacy.indexOf('admissionregistration.k8s.io')).toBeLessThan(legacy.indexOf('apiextensions.k8s.io'));
    expect(legacy.indexOf('apiextensions.k8s.io')).toBeLessThan(legacy.indexOf('scheduling.k8s.io'));
    expect((await aggregatedNames(s)).filter((g) => g)).toEqual(legacy);
    const fc = (await call(s, 'GET', '/apis/flowcontrol.apiserver.k8s.io')).body;
    expect(fc.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta3']);
    expect(fc.preferredVersion.version).toBe('v1');
  });

  it('changing an APIService reorders discovery', async () => {
    const cur = (await call(s, 'GET', `${AS}/v1.batch`)).body;
    const up = await call(s, 'PUT', `${AS}/v1.batch`, { ...cur, spec: { ...cur.spec, groupPriorityMinimum: 19000 } });
    expect(up.code, JSON.stringify(up.body)).toBe(200);
    await until(async () => (await groupNames(s))[0] === 'batch');
    expect((await aggregatedNames(s))[0]).toBe('batch');
    // version order inside a group follows versionPriority
    const fc = (await call(s, 'GET', `${AS}/v1beta3.flowcontrol.apiserver.k8s.io`)).body;
    expect((await call(s, 'PUT', `${AS}/v1beta3.flowcontrol.apiserver.k8s.io`, { ...fc, spec: { ...fc.spec, versionPriority: 50 } })).code).toBe(200);
    await until(async () => (await call(s, 'GET', '/apis/flowcontrol.apiserver.k8s.io')).body.preferredVersion.version === 'v1beta3');
    expect((await call(s, 'GET', '/apis')).body.groups.find((g: any) => g.name === 'flowcontrol.apiserver.k8s.io').versions[0].version).toBe('v1beta3');
    // deleting restores nothing by itself; the remaining objects still order discovery
    expect((await call(s, 'DELETE', `${AS}/v1.batch`)).code).toBe(200);
    await until(async () => (await groupNames(s)).at(-1) === 'batch');
  });
});

describe('discovery rebuilds', () => {
  it('a status update of an APIService leaves the discovery documents as built; a priority change reorders them', async () => {
    const srv = await server();
    try {
      const reorder = vi.spyOn(Discovery.prototype, 'reorder');
      const cur = (await call(srv, 'GET', `${AS}/v1.apps`)).body;
      const cond = { type: 'Extra', status: 'True', reason: 'Test', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z' };
      expect((await call(srv, 'PUT', `${AS}/v1.apps/status`, { ...cur, status: { conditions: [...cur.status.conditions, cond] } })).code).toBe(200);
      // a later priority change: once discovery shows it, the status update's event was handled before it
      const batch = (await call(srv, 'GET', `${AS}/v1.batch`)).body;
      expect((await call(srv, 'PUT', `${AS}/v1.batch`, { ...batch, spec: { ...batch.spec, groupPriorityMinimum: 19000 } })).code).toBe(200);
      await until(async () => (await groupNames(srv))[0] === 'batch');
      expect(reorder).toHaveBeenCalledTimes(1);
    } finally {
      vi.restoreAllMocks();
      await srv.stop();
    }
  });
});

describe('restart with a group-version turned off', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'apisvc-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates once, removes the automanaged APIService of a disabled group-version', async () => {
    const a = await server({ dataDir: dir, runtimeConfig: 'networking.k8s.io/v1beta1=true' });
    try {
      expect((await call(a, 'GET', `${AS}/v1beta1.networking.k8s.io`)).code).toBe(200);
      const rv = (await call(a, 'GET', `${AS}/v1.apps`)).body.metadata.resourceVersion;
      await a.stop();
      const b = await server({ dataDir: dir });
      try {
        expect((await call(b, 'GET', `${AS}/v1beta1.networking.k8s.io`)).code).toBe(404);
        // idempotent: an existing, available APIService is left as it is
        expect((await call(b, 'GET', `${AS}/v1.apps`)).body.metadata.resourceVersion).toBe(rv);
      } finally {
        await b.stop();
      }
    } finally {
      await a.stop();
    }
  });
});

describe('prioritiesOf', () => {
  it('a group takes its highest groupPriorityMinimum', () => {
    const p = prioritiesOf([
      { spec: { group: 'x', version: 'v1', groupPriorityMinimum: 10, versionPriority: 5 } },
      { spec: { group: 'x', version: 'v2', groupPriorityMinimum: 30, versionPriority: 1 } },
      { spec: { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 } },
    ]);
    expect(p.groups).toEqual(
      new Map([
        ['x', 30],
        ['', 18000],
      ]),
    );
    expect(p.versions.get('x/v1')).toBe(5);
  });
});
