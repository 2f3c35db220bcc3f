// The registry's patch and apply operations without HTTP: each reads the
// live object, patches or merges it, checks the result as a request body of
// the client's version and runs the update pipeline; apply records the
// applier's ownership itself and creates a missing object, a patch never
// creates; a write that conflicts is retried inside the registry, the patch
// or configuration applied again to the new live object. Over in-memory
// storage with the generated API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaValidator } from '../../generated/api-types.ts';
import { resources } from '../../generated/registry.ts';
import { mergeSchema } from '../../generated/merge-schema.ts';
import { validators } from '../../generated/validators/index.ts';
import { ApiError } from '../api/errors.ts';
import { openStorage, type OpenedStorage } from '../storage/factory.ts';
import type { Obj, Storage } from '../storage/interface.ts';
import { Defaulter } from './defaults.ts';
import { createManagedFieldsHook } from './managed-fields.ts';
import { buildApiIndex, type ServedResource } from './served.ts';
import type { PatchServices } from './patching.ts';
import type { AdmissionStage, WriteServices } from './write-services.ts';

const noAdmission: AdmissionStage = { size: 0, async admit() {}, async validate() {} };
let storage: OpenedStorage;
let cm: ServedResource;
/** The ConfigMaps of a second index whose storage lets another writer in before the first attempt of each write commits. */
let racing: ServedResource;
let attempts = 0;
let services: PatchServices & WriteServices;

beforeAll(async () => {
  storage = await openStorage({ watchCache: false });
  const loaders = validators as Record<string, () => Promise<SchemaValidator>>;
  services = {
    validator: (schema) => (loaders[schema] ? loaders[schema]() : Promise.resolve(undefined)),
    defaulter: new Defaulter(mergeSchema),
    managedFields: createManagedFieldsHook(mergeSchema),
    admission: noAdmission,
    mergeSchema,
  };
  const api = buildApiIndex(resources, storage.storageFor, new Map(), services);
  cm = api.lookup('', 'v1', 'configmaps')!;
  const interleaved = (prefix: string, attrs: Parameters<typeof storage.storageFor>[1]): Storage => {
    const inner = storage.storageFor(prefix, attrs);
    return new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop !== 'guaranteedUpdate') return Reflect.get(target, prop, receiver);
        return (key: string, opts: Parameters<Storage['guaranteedUpdate']>[1]) => {
          let first = true;
          return target.guaranteedUpdate(key, {
            ...opts,
            tryUpdate: async (live: Obj | null) => {
              attempts++;
              const next = await opts.tryUpdate(live);
              if (first && live) {
                first = false;
                // another writer commits between this attempt's read and its write
                await target.guaranteedUpdate(key, { tryUpdate: (cur) => ({ ...cur!, data: { ...cur!.data, other: 'concurrent' } }) });
              }
              return next;
            },
          });
        };
      },
    });
  };
  racing = buildApiIndex(resources, interleaved, new Map(), services).lookup('', 'v1', 'configmaps')!;
});
afterAll(async () => {
  await storage?.close();
});

const check = () => ({ def: cm.def, fieldValidation: 'Strict' as const, duplicates: [] });
const opts = () => ({ services, hooks: {} });
const codeOf = async (p: Promise<unknown>): Promise<number | undefined> => {
  try {
    await p;
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
};

describe('RegistryStore.apply', () => {
  it("creates a missing object with the applier's ownership, then merges into it", async () => {
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ap', namespace: 'default' }, data: { a: '1' } };
    const first = await cm.store.apply('default', 'ap', { ...check(), config: structuredClone(config), manager: 'me', force: false }, opts());
    expect(first.created).toBe(true);
    expect(first.obj.metadata.managedFields).toMatchObject([{ manager: 'me', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } }]);
    const second = await cm.store.apply('default', 'ap', { ...check(), config: { ...structuredClone(config), data: { b: '2' } }, manager: 'other', force: false }, opts());
    expect(second.created).toBe(false);
    expect(second.obj.data).toEqual({ a: '1', b: '2' });
    expect(second.obj.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(['me', 'other']);
  });

  it.each([
    ['managedFields in the configuration', { metadata: { name: 'bad', managedFields: [] } }, 400],
    ['a field the schema does not know (Strict)', { metadata: { name: 'bad' }, nope: 1 }, 400],
    ['another kind', { kind: 'Secret', metadata: { name: 'bad' } }, 400],
  ])('refuses %s', async (_n, config, code) => {
    expect(await codeOf(cm.store.apply('default', 'bad', { ...check(), config: config as never, manager: 'me', force: false }, opts()))).toBe(code);
  });
});

describe('RegistryStore.patch', () => {
  it.each([
    ['merge', { data: { k: 'merged' } }, { k: 'merged', keep: 'x' }],
    ['strategic', { data: { k: 'strategic' } }, { k: 'strategic', keep: 'x' }],
    ['json', [{ op: 'replace', path: '/data/k', value: 'json' }], { k: 'json', keep: 'x' }],
  ] as const)('a %s patch of the live object goes through the update pipeline', async (type, patch, data) => {
    const name = `p-${type}`;
    await cm.store.create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v', keep: 'x' } }, { hooks: {} });
    const out = await cm.store.patch(
      'default',
      name,
      { ...check(), type, patch },
      {
        services,
        hooks: {
          manageFields: (o) => {
            o.metadata.labels = { owned: 'yes' };
          },
        },
      },
    );
    expect(out.data).toEqual(data);
    expect(out.metadata.labels).toEqual({ owned: 'yes' });
  });

  it.each([
    ['a missing object (a patch never creates)', 'p-missing', { data: { a: 'b' } }, 404],
    ['a stale resourceVersion in the patch', 'p-merge', { metadata: { resourceVersion: '1' } }, 409],
    ['a result the schema refuses', 'p-merge', { data: { k: 5 } }, 400],
  ])('refuses %s', async (_n, name, patch, code) => {
    expect(await codeOf(cm.store.patch('default', name, { ...check(), type: 'merge', patch }, opts()))).toBe(code);
  });
});

describe('a conflicting write is retried inside the registry', () => {
  it('a patch is applied again to the object the other writer stored', async () => {
    await cm.store.create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'race-patch' }, data: { k: 'v' } }, { hooks: {} });
    attempts = 0;
    const out = await racing.store.patch('default', 'race-patch', { ...check(), type: 'merge', patch: { data: { k: 'patched' } } }, opts());
    expect(attempts).toBe(2);
    expect(out.data).toEqual({ k: 'patched', other: 'concurrent' });
  });

  it('an apply is merged again into the object the other writer stored', async () => {
    await cm.store.create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'race-apply' }, data: { k: 'v' } }, { hooks: {} });
    attempts = 0;
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'race-apply' }, data: { a: 'applied' } };
    const { obj } = await racing.store.apply('default', 'race-apply', { ...check(), config, manager: 'me', force: false }, opts());
    expect(attempts).toBe(2);
    expect(obj.data).toEqual({ k: 'v', a: 'applied', other: 'concurrent' });
  });
});
