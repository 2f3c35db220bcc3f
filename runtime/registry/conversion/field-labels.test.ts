// Field-selector labels from the request's version to the stored version.
import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../../generated/api-types.ts';
import { resources } from '../../../generated/registry.ts';
import { fieldLabelMapper } from './field-labels.ts';

const find = (group: string, resource: string) => resources.find((r) => r.group === group && r.resource === resource)!;
const core = find('', 'events');
const events = find('events.k8s.io', 'events');

describe('fieldLabelMapper', () => {
  it.each([
    ['regarding.kind', 'involvedObject.kind'],
    ['regarding.fieldPath', 'involvedObject.fieldPath'],
    ['reportingController', 'reportingComponent'],
    ['source', 'source'],
    ['reason', 'reason'],
    ['metadata.name', 'metadata.name'],
  ])('events.k8s.io %s is stored as %s', (label, want) => {
    expect(fieldLabelMapper(events, core)!(label)).toBe(want);
  });

  it('maps nothing for the storage version itself or versions without labels of their own', () => {
    expect(fieldLabelMapper(core, core)).toBeUndefined();
    const plain = resources.filter((r) => r.group === 'flowcontrol.apiserver.k8s.io' && r.resource === 'flowschemas');
    expect(fieldLabelMapper(plain[0], plain[1])).toBeUndefined();
  });

  it('goes back from the hub when the storage version has labels of its own', () => {
    const hub = { ...core, conversion: undefined } as ResourceDef;
    const storage = { ...events, storageVersion: true } as ResourceDef;
    expect(fieldLabelMapper(hub, storage)!('involvedObject.kind')).toBe('regarding.kind');
  });
});
