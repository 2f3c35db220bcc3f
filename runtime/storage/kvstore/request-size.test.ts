// The write size limit of KVStorage (etcd's --max-request-bytes): creates and
// updates over it fail with RequestTooLargeError and store nothing; what is
// under it, or unchanged, passes.
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteKV } from '../sqlite/index.ts';
import { KVStorage } from './kv-storage.ts';
import { checkRequestSize, REQUEST_TOO_LARGE_MESSAGE, RequestTooLargeError } from './request-size.ts';
import { InvalidRequestError, type KV } from '../interface.ts';

const KEY = '/registry/core/configmaps/d/a';
let kv: KV | undefined;
afterEach(async () => {
  await kv?.close();
  kv = undefined;
});

describe('checkRequestSize', () => {
  it.each([
    ['under', 'k', 'x'.repeat(90), 100, false],
    ['exactly at the limit', 'k', 'x'.repeat(99), 100, false],
    ['over by one', 'k', 'x'.repeat(100), 100, true],
    ['counted in UTF-8 bytes', 'k', 'é'.repeat(50), 100, true],
    ['no limit', 'k', 'x'.repeat(1000), 0, false],
  ])('%s', (_n, key, value, limit, throws) => {
    if (throws) {
      expect(() => checkRequestSize(key, value, limit)).toThrow(RequestTooLargeError);
      expect(() => checkRequestSize(key, value, limit)).toThrow(REQUEST_TOO_LARGE_MESSAGE);
    } else {
      expect(() => checkRequestSize(key, value, limit)).not.toThrow();
    }
  });
  it('is an InvalidRequestError (never a server error for callers that know only that)', () => {
    expect(new RequestTooLargeError(2, 1)).toBeInstanceOf(InvalidRequestError);
  });
});

describe('KVStorage with maxRequestBytes', () => {
  const open = () => {
    kv = openSqliteKV({ path: ':memory:' });
    return new KVStorage(kv, { maxRequestBytes: 1000 });
  };
  const cm = (size: number) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'd' }, data: { x: 'y'.repeat(size) } });

  it('refuses a create over the limit and stores nothing', async () => {
    const s = open();
    await expect(s.create(KEY, cm(2000))).rejects.toBeInstanceOf(RequestTooLargeError);
    expect(await s.get(KEY)).toBeNull();
  });

  it('refuses an update that grows the object over the limit and keeps the old value', async () => {
    const s = open();
    const created = await s.create(KEY, cm(10));
    await expect(s.guaranteedUpdate(KEY, { tryUpdate: (cur) => ({ ...cur!, data: { x: 'z'.repeat(2000) } }) })).rejects.toBeInstanceOf(RequestTooLargeError);
    expect((await s.get(KEY))!.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const smaller = await s.guaranteedUpdate(KEY, { tryUpdate: (cur) => ({ ...cur!, data: { x: 'small' } }) });
    expect(smaller.data.x).toBe('small');
  });

  it('refuses a create through guaranteedUpdate (PUT or apply of a missing object) over the limit', async () => {
    const s = open();
    await expect(s.guaranteedUpdate(KEY, { ignoreNotFound: true, tryUpdate: () => cm(2000) })).rejects.toBeInstanceOf(RequestTooLargeError);
    expect(await s.get(KEY)).toBeNull();
  });
});
