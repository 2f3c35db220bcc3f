// Discovery as an object: each server's documents are its own, built when
// first read, and reorder() changes what the next read of `documents` sees
// (groups and versions in APIService priority order) without touching
// another server's.

import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import type { Served } from '../api/served-index.ts';
import { Discovery, type DiscoveryPriorities } from './discovery.ts';

function def(group: string, version: string, resource: string, kind: string): ResourceDef {
  return {
    group,
    version,
    kind,
    listKind: `${kind}List`,
    resource,
    singular: resource.replace(/s$/, ''),
    namespaced: true,
    verbs: ['get', 'list'],
    shortNames: [],
    categories: [],
    subresources: [],
    printerColumns: [],
    selectableFields: [],
    allowCreateOnUpdate: false,
    storageVersion: version === 'v1',
    preferredVersion: version === 'v1',
    stability: 'GA',
    enabledByDefault: true,
    schema: kind,
    custom: false,
    nameRule: 'subdomain',
    virtual: false,
  };
}

const served: Served<unknown>[] = [def('apps', 'v1', 'deployments', 'Deployment'), def('batch', 'v1', 'jobs', 'Job'), def('batch', 'v2', 'jobs', 'Job')].map((d) => ({
  def: d,
  storageDef: d,
  store: undefined,
}));

const groupNames = (d: Discovery) => (d.documents.apiGroupList as { groups: { name: string }[] }).groups.map((g) => g.name);
const batchVersions = (d: Discovery) => (d.documents.groups.get('batch') as { versions: { version: string }[] }).versions.map((v) => v.version);

describe('Discovery', () => {
  it('orders by the fixed group order until priorities are given', () => {
    const d = new Discovery(served, '127.0.0.1:6443');
    expect(groupNames(d)).toEqual(['apps', 'batch']);
    expect(batchVersions(d)).toEqual(['v1', 'v2']);
  });

  it('builds the documents when read, not when made or reordered', () => {
    let reads = 0;
    // counts every walk over the served list (each build makes one)
    const counted = new Proxy(served, {
      get(target, prop, receiver) {
        if (prop === Symbol.iterator) reads++;
        return Reflect.get(target, prop, receiver);
      },
    });
    const d = new Discovery(counted, '127.0.0.1:6443');
    d.reorder({ groups: new Map([['batch', 1]]), versions: new Map() });
    d.reorder({ groups: new Map([['apps', 1]]), versions: new Map() });
    expect(reads).toBe(0);
    expect(groupNames(d)).toEqual(['apps', 'batch']);
    expect(groupNames(d)).toEqual(['apps', 'batch']);
    expect(reads).toBe(1);
    d.reorder({ groups: new Map([['batch', 1]]), versions: new Map() });
    expect(groupNames(d)).toEqual(['batch', 'apps']);
    expect(reads).toBe(2);
  });

  it('reorder() rebuilds the documents of that server only', () => {
    const a = new Discovery(served, '127.0.0.1:6443');
    const b = new Discovery(served, '127.0.0.1:6444');
    const priorities: DiscoveryPriorities = {
      groups: new Map([
        ['apps', 100],
        ['batch', 200],
      ]),
      versions: new Map([
        ['apps/v1', 15],
        ['batch/v1', 10],
        ['batch/v2', 20],
      ]),
    };
    a.reorder(priorities);
    expect(groupNames(a)).toEqual(['batch', 'apps']);
    expect(batchVersions(a)).toEqual(['v2', 'v1']);
    // the other server, built from the same served list, is unchanged
    expect(groupNames(b)).toEqual(['apps', 'batch']);
    expect(batchVersions(b)).toEqual(['v1', 'v2']);
  });
});
