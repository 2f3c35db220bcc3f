// openStorage: in memory and on disk (<dataDir>/specserver.db), one cache per
// prefix, and data surviving a reopen.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../runtime/storage/factory.ts';
import { Cacher } from '../../runtime/storage/cacher/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import { testAttrs } from './suite.ts';

const P = '/registry/core/configmaps/';
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } };

describe('openStorage', () => {
  it('opens in memory with one cache per prefix', async () => {
    const st = await openStorage();
    const s = st.storageFor(P, testAttrs);
    expect(s).toBeInstanceOf(Cacher);
    expect(st.storageFor(P, testAttrs)).toBe(s);
    expect(st.storageFor('/registry/core/secrets/', testAttrs)).not.toBe(s);
    const created = await s.create(`${P}ns/a`, cm);
    expect((await s.list(P)).items.map((o) => o.metadata.name)).toEqual(['a']);
    expect(created.metadata.resourceVersion).toBe(String(await st.kv.currentRevision()));
    await st.close();
  });

  it('keeps data in <dataDir>/specserver.db across reopen, without the cache when asked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-factory-'));
    try {
      let st = await openStorage({ dataDir: path.join(dir, 'data') });
      await st.storageFor(P, testAttrs).create(`${P}ns/a`, cm);
      await st.close();
      expect(fs.existsSync(path.join(dir, 'data', 'specserver.db'))).toBe(true);
      st = await openStorage({ dataDir: path.join(dir, 'data'), watchCache: false });
      const s = st.storageFor(P, testAttrs);
      expect(s).toBeInstanceOf(KVStorage);
      expect((await s.get(`${P}ns/a`))!.metadata.name).toBe('a');
      await st.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
