// Event expiry with a fake clock: lastWritten() per row, and sweeps over
// in-memory storage that delete Events (core/v1 and events.k8s.io/v1 are
// one store) only once the TTL has passed since their last write.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaValidator } from '../../generated/api-types.ts';
import { mergeSchema } from '../../generated/merge-schema.ts';
import { resources } from '../../generated/registry.ts';
import { validators } from '../../generated/validators/index.ts';
import { Defaulter } from '../registry/defaults.ts';
import { createManagedFieldsHook } from '../registry/managed-fields.ts';
import { buildApiIndex, type ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER, type AdmissionStage } from '../registry/write-services.ts';
import { openStorage, type OpenedStorage } from '../storage/factory.ts';
import { lastWritten, startEventTTL } from './event-ttl.ts';

describe('lastWritten', () => {
  const at = (s: string) => Date.parse(s);
  it.each([
    ['creation only', { creationTimestamp: '2026-01-01T00:00:00Z' }, at('2026-01-01T00:00:00Z')],
    ['a later managedFields time', { creationTimestamp: '2026-01-01T00:00:00Z', managedFields: [{ time: '2026-01-01T00:30:00Z' }, { time: '2026-01-01T00:10:00Z' }] }, at('2026-01-01T00:30:00Z')],
    ['an earlier managedFields time', { creationTimestamp: '2026-01-01T01:00:00Z', managedFields: [{ time: '2026-01-01T00:30:00Z' }] }, at('2026-01-01T01:00:00Z')],
    ['no times', {}, NaN],
  ])('%s', (_name, metadata, want) => expect(lastWritten({ metadata })).toBe(want));
});

describe('sweep', () => {
  const noAdmission: AdmissionStage = { size: 0, async admit() {}, async validate() {} };
  let storage: OpenedStorage;
  let api: ApiIndex;
  beforeAll(async () => {
    storage = await openStorage({ watchCache: false });
    const loaders = validators as Record<string, () => Promise<SchemaValidator>>;
    const services = {
      validator: (schema: string) => (loaders[schema] ? loaders[schema]() : Promise.resolve(undefined)),
      defaulter: new Defaulter(mergeSchema),
      managedFields: createManagedFieldsHook(mergeSchema),
      admission: noAdmission,
      mergeSchema,
    };
    api = buildApiIndex(resources, storage.storageFor, new Map(), services);
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('deletes Events of both groups (one store) once the TTL has passed since their last write', async () => {
    const writer = { writer: APISERVER_WRITER };
    const core = api.lookup('', 'v1', 'events')!.store;
    const v1 = api.lookup('events.k8s.io', 'v1', 'events')!.store;
    expect(v1).toBe(core);
    await core.create('default', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'a' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm' }, writer);
    // an events.k8s.io-style Event (eventTime and the reporting fields), written in the stored shape
    await core.create(
      'default',
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'b' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
        eventTime: '2026-01-01T00:00:00.000000Z',
        reportingComponent: 'x.io/c',
        reportingInstance: 'i',
        action: 'A',
        reason: 'R',
        type: 'Normal',
      },
      writer,
    );
    expect((await v1.list('', {})).items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    const written = Math.max(...(await core.list('', {})).items.map(lastWritten));
    let clock = written + 59 * 60_000;
    const ttl = startEventTTL(api, { ttlMs: 3600_000, now: () => clock, intervalMs: 0 });
    expect(await ttl.sweep()).toBe(0);
    clock = written + 60 * 60_000 + 1000;
    const removed = await ttl.sweep();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await core.list('', {})).items).toEqual([]);
    expect((await v1.list('', {})).items).toEqual([]);
    await ttl.stop();
  });
});
