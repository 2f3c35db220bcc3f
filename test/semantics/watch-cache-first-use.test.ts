// The watch caches list the store on their resource's first read or watch,
// not at start-up: on a restart a resource nobody has read yet has no cache
// contents, and once read it answers as a cache primed at start would. (The
// garbage collector watches every resource from the turn after readiness
// on: it is off here, so that the first read of ControllerRevisions, which
// nothing else reads at start, is the test's.)
// Writes made before the first read are all seen by consistent reads, and a
// watch from the resourceVersion of such a write gets every change after it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { Cacher } from '../../runtime/storage/cacher/index.ts';
import { call, server } from './helpers.ts';

const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const PREFIX = '/registry/apps/controllerrevisions/';
/** A ControllerRevision named `name` at revision `v`. */
const revision = (name: string, v: number) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: v });

let dir: string;
let s: RunningServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-first-use-'));
});
afterEach(async () => {
  await s?.stop();
  s = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The controllerrevisions' watch cache of a running server. */
function revisionCache(srv: RunningServer): Cacher {
  const c = srv.storage.storageFor(PREFIX, () => ({ labels: {}, fields: {} }));
  expect(c).toBeInstanceOf(Cacher);
  return c as Cacher;
}

/** The events of a watch response, read until `count` arrived (the stream is then cancelled). */
async function events(res: Response, count: number): Promise<{ type: string; name: string; revision: number }[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const out: { type: string; name: string; revision: number }[] = [];
  let buf = '';
  while (out.length < count) {
    const r = await reader.read();
    if (r.done) break;
    buf += dec.decode(r.value, { stream: true });
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const ev = JSON.parse(buf.slice(0, nl));
      out.push({ type: ev.type, name: ev.object.metadata?.name, revision: ev.object.revision });
      buf = buf.slice(nl + 1);
    }
  }
  await reader.cancel().catch(() => {});
  return out;
}

describe('watch caches primed on first use', () => {
  it('after a restart: writes before the first read are read back, and a watch from the first write sees the rest', async () => {
    s = await server({ dataDir: dir });
    expect((await call(s, 'POST', CR, revision('before-restart', 1))).code).toBe(201);
    await s.stop();
    s = await server({ dataDir: dir, controllers: ['*', '-garbagecollector'] });
    // nothing has read configmaps since the start: the cache has listed nothing
    expect(revisionCache(s).cacheRevision).toBe(0);
    const first = await call(s, 'POST', CR, revision('a', 1));
    expect(first.code).toBe(201);
    expect((await call(s, 'POST', CR, revision('b', 1))).code).toBe(201);
    // creates read nothing; the update and the delete read the object first: the cache lists then
    expect(revisionCache(s).cacheRevision).toBe(0);
    expect((await call(s, 'PUT', `${CR}/a`, { ...first.body, revision: 2 })).code).toBe(200);
    expect((await call(s, 'DELETE', `${CR}/b`)).code).toBe(200);
    const watch = await s.app.request(`${CR}?watch=1&resourceVersion=${first.body.metadata.resourceVersion}`);
    expect(watch.status).toBe(200);
    expect(await events(watch, 3)).toEqual([
      { type: 'ADDED', name: 'b', revision: 1 },
      { type: 'MODIFIED', name: 'a', revision: 2 },
      { type: 'DELETED', name: 'b', revision: 1 },
    ]);
    expect(revisionCache(s).cacheRevision).toBeGreaterThan(0);
    const list = await call(s, 'GET', CR);
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'before-restart']);
  });

  it('a write then a read back, in a tight loop from the first request on', async () => {
    s = await server({ dataDir: dir });
    for (let i = 0; i < 25; i++) {
      const made = await call(s, 'POST', CR, revision(`o${i}`, i + 1));
      expect(made.code).toBe(201);
      const got = await call(s, 'GET', `${CR}/o${i}`);
      expect(got.body.metadata.resourceVersion).toBe(made.body.metadata.resourceVersion);
      const list = await call(s, 'GET', CR);
      expect(list.body.items).toHaveLength(i + 1);
    }
  });
});
