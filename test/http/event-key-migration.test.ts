// The start-up migration of events.k8s.io Events that earlier versions
// stored under their own group's key: a SQLite data directory and an etcd
// holding such keys (written with the storage layer, as those versions
// wrote them) are served after a start through both Event APIs, stored
// under core's key in core's shape with their uid and creation time, and
// the old keys are gone; an Event of the same name already under core's key
// is kept. A second start finds nothing to move; on etcd two replicas start
// at once over the same keys. An events.k8s.io Event that an even earlier
// layout put in core's own directory (etcd's `/registry/events/`, shared by
// both groups then) is selected by field selectors of both groups.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { openStorage, type OpenStorageOptions } from '../../runtime/storage/factory.ts';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { appCaller, type Json } from '../support/app-call.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

const OLD = '/registry/events.k8s.io/events/';
const NS = 'default';

/** An events.k8s.io/v1 Event as earlier versions stored it (with the identity the store had given it). */
function oldEvent(name: string, uid: string): Json {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: NS, uid, creationTimestamp: '2026-01-01T00:00:00Z' },
    eventTime: '2026-01-01T00:00:00.000001Z',
    type: 'Warning',
    reportingController: 'example.com/ctl',
    reportingInstance: 'ctl-1',
    action: 'Sync',
    reason: 'Failed',
    note: `note of ${name}`,
    regarding: { kind: 'Pod', name: 'p1', namespace: NS, apiVersion: 'v1' },
  };
}

/** A core Event already under core's key with the name of an old one. */
const coreEvent: Json = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'taken', namespace: NS, uid: 'core-uid', creationTimestamp: '2026-01-02T00:00:00Z' },
  involvedObject: { kind: 'Pod', name: 'p2', namespace: NS },
  reason: 'Kept',
  message: 'the core one',
  type: 'Normal',
};

/** Writes what an earlier version left: two old keys, one of them named like a core Event. */
async function seed(opts: OpenStorageOptions): Promise<void> {
  const st = await openStorage({ ...opts, watchCache: false });
  try {
    await st.base.create(`${OLD}${NS}/moved`, oldEvent('moved', 'old-uid-1'));
    await st.base.create(`${OLD}${NS}/taken`, oldEvent('taken', 'old-uid-2'));
    await st.base.create(`/registry/core/events/${NS}/taken`, coreEvent);
    await st.base.create(`/registry/core/events/${NS}/shared`, oldEvent('shared', 'old-uid-3'));
  } finally {
    await st.close();
  }
}

/** What a server serves of the migrated Events, and what is left under the old keys. */
async function check(s: RunningServer): Promise<void> {
  const call = appCaller(() => s);
  const core = await call('GET', `/api/v1/namespaces/${NS}/events/moved`);
  expect(core.status).toBe(200);
  expect(core.json).toMatchObject({
    apiVersion: 'v1',
    message: 'note of moved',
    involvedObject: { kind: 'Pod', name: 'p1' },
    reportingComponent: 'example.com/ctl',
    metadata: { uid: 'old-uid-1', creationTimestamp: '2026-01-01T00:00:00Z' },
  });
  const v1 = await call('GET', `/apis/events.k8s.io/v1/namespaces/${NS}/events/moved`);
  expect(v1.status).toBe(200);
  expect(v1.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'note of moved', regarding: { name: 'p1' }, metadata: { uid: 'old-uid-1' } });
  // stored once, in core's shape, under core's key
  const stored = await s.storage.base.get(`/registry/core/events/${NS}/moved`);
  expect(stored).toMatchObject({ apiVersion: 'v1', message: 'note of moved' });
  // the Event already under core's key stays as it was
  const taken = await call('GET', `/api/v1/namespaces/${NS}/events/taken`);
  expect(taken.json).toMatchObject({ message: 'the core one', metadata: { uid: 'core-uid' } });
  expect((await s.storage.base.list(OLD)).items).toEqual([]);
  const list = await call('GET', `/apis/events.k8s.io/v1/namespaces/${NS}/events`);
  expect(list.json.items.map((i: Json) => i.metadata.name).sort()).toEqual(['moved', 'shared', 'taken']);
  // selected by their fields as stored in core's shape, whatever version they were stored in
  const byCore = await call('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=p1`);
  expect(byCore.json.items.map((i: Json) => i.metadata.name).sort()).toEqual(['moved', 'shared']);
  const byGroup = await call('GET', `/apis/events.k8s.io/v1/namespaces/${NS}/events?fieldSelector=regarding.name=p1`);
  expect(byGroup.json.items.map((i: Json) => `${i.metadata.name}:${i.note}`).sort()).toEqual(['moved:note of moved', 'shared:note of shared']);
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('moving old events.k8s.io Event keys on SQLite', () => {
  it('moves them at start, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'event-keys-'));
    dirs.push(dataDir);
    await seed({ dataDir });
    const notes: string[] = [];
    let s = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir, log: (m) => notes.push(m) });
    try {
      await check(s);
      expect(notes.some((n) => n.includes('moved 1 of 2 events.k8s.io Events'))).toBe(true);
    } finally {
      await s.stop();
    }
    notes.length = 0;
    s = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir, log: (m) => notes.push(m) });
    try {
      await check(s);
      expect(notes.some((n) => n.includes('events.k8s.io Events'))).toBe(false);
    } finally {
      await s.stop();
    }
  });
});

describe.skipIf(!etcdAvailable())('moving old events.k8s.io Event keys on etcd', () => {
  let etcd: TestEtcd | undefined;
  afterAll(async () => {
    await etcd?.stop();
  });

  it('moves them at start with two replicas starting at once', async () => {
    etcd = await startEtcd();
    const opts = { servers: [etcd.url], compactionIntervalMs: 0 };
    await seed({ etcd: opts });
    const start = () => startServer({ authorizationMode: ['AlwaysAllow'], etcd: opts, log: () => {} });
    const replicas = await Promise.all([start(), start()]);
    try {
      for (const s of replicas) await check(s);
      // in etcd: nothing left in the old directory, both under core's
      const keys = async (prefix: string) => {
        const b64 = (x: string) => Buffer.from(x).toString('base64');
        const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
        const res = await fetch(`${etcd!.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end), keys_only: true }) });
        const body = (await res.json()) as { kvs?: { key: string }[] };
        return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString());
      };
      expect(await keys('/registry/events.k8s.io/')).toEqual([]);
      expect(await keys(`/registry/events/${NS}/`)).toEqual([`/registry/events/${NS}/moved`, `/registry/events/${NS}/shared`, `/registry/events/${NS}/taken`]);
    } finally {
      await Promise.all(replicas.map((s) => s.stop()));
    }
  });
});
