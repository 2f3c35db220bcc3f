// The move of old events.k8s.io Event keys over in-memory storage, one row
// per thing another replica (or an older one still running) may do between
// the read of an old key and its delete: nothing, delete it first, write it
// again. Whatever happens, the Event is under core's key once, and an old
// key written again is kept for the next start.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resources } from '../../generated/registry.ts';
import { buildApiIndex, type ApiIndex } from '../registry/served.ts';
import { openStorage, type OpenedStorage } from '../storage/factory.ts';
import type { Obj, Storage } from '../storage/interface.ts';
import { migrateOldEventKeys, OLD_EVENTS_ROOT } from './event-key-migration.ts';

const KEY = `${OLD_EVENTS_ROOT}ns/e`;
const old: Obj = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'ns', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z' },
  eventTime: '2026-01-01T00:00:00.000001Z',
  type: 'Normal',
  reportingController: 'c',
  reportingInstance: 'i',
  action: 'A',
  reason: 'R',
  note: 'n',
  regarding: { kind: 'Pod', name: 'p', namespace: 'ns' },
};

/** The object layer, with `before` run ahead of each delete. */
function withBeforeDelete(base: Storage, before: (s: Storage) => Promise<void>): Storage {
  return Object.assign(Object.create(base) as Storage, {
    delete: async (key: string, opts?: Parameters<Storage['delete']>[1]) => {
      await before(base);
      return base.delete(key, opts);
    },
  });
}

describe('migrateOldEventKeys', () => {
  let storage: OpenedStorage;
  let api: ApiIndex;
  beforeEach(async () => {
    storage = await openStorage({ watchCache: false });
    api = buildApiIndex(resources, storage.storageFor, new Map());
  });
  afterEach(async () => {
    await storage?.close();
  });

  it.each([
    ['nothing meanwhile', async () => {}, { found: 1, created: 1, deleted: 1 }, false],
    ['the old key deleted by another replica', async (s: Storage) => void (await s.delete(KEY)), { found: 1, created: 1, deleted: 0 }, false],
    ['the old key written again', async (s: Storage) => void (await s.guaranteedUpdate(KEY, { tryUpdate: (o) => ({ ...o!, note: 'again' }) })), { found: 1, created: 1, deleted: 0 }, true],
  ])('%s', async (_name, before, want, oldKept) => {
    await storage.base.create(KEY, structuredClone(old));
    const got = await migrateOldEventKeys(api, withBeforeDelete(storage.base, before));
    expect(got).toEqual(want);
    expect(await storage.base.get('/registry/core/events/ns/e')).toMatchObject({ apiVersion: 'v1', message: 'n', metadata: { uid: 'u1' } });
    expect(!!(await storage.base.get(KEY))).toBe(oldKept);
    // a second run: an old key kept is found again, and the core one is not written twice
    const again = await migrateOldEventKeys(api, storage.base);
    expect(again).toEqual(oldKept ? { found: 1, created: 0, deleted: 1 } : { found: 0, created: 0, deleted: 0 });
  });

  it('leaves an Event already under core key alone and deletes the old key', async () => {
    const core = api.lookup('', 'v1', 'events')!.store;
    await storage.base.create('/registry/core/events/ns/e', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns', uid: 'u0' }, involvedObject: {}, message: 'core' });
    await storage.base.create(KEY, structuredClone(old));
    expect(await migrateOldEventKeys(api, storage.base)).toEqual({ found: 1, created: 0, deleted: 1 });
    expect(await core.get('ns', 'e')).toMatchObject({ message: 'core', metadata: { uid: 'u0' } });
    expect(await storage.base.get(KEY)).toBeNull();
  });

  it('moves more Events than one page', async () => {
    for (let i = 0; i < 501; i++) await storage.base.create(`${OLD_EVENTS_ROOT}ns/e${i}`, { ...structuredClone(old), metadata: { ...old.metadata, name: `e${i}`, uid: `u${i}` } });
    expect(await migrateOldEventKeys(api, storage.base)).toEqual({ found: 501, created: 501, deleted: 501 });
    expect(await storage.base.count('/registry/core/events/ns/')).toBe(501);
    expect(await storage.base.count(OLD_EVENTS_ROOT)).toBe(0);
  });
});
