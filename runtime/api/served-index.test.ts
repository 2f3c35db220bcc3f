// The served-resource index (--runtime-config is runtime-config.test.ts): one
// binding per group and resource (made with the storage version), look-up
// by path and by kind (preferred version first).

import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import { ServedIndex } from './served-index.ts';

function def(group: string, version: string, over: Partial<ResourceDef> = {}): ResourceDef {
  return {
    group,
    version,
    kind: 'Widget',
    listKind: 'WidgetList',
    resource: 'widgets',
    singular: 'widget',
    namespaced: true,
    verbs: ['get'],
    shortNames: [],
    categories: [],
    subresources: [],
    printerColumns: [],
    selectableFields: [],
    allowCreateOnUpdate: false,
    storageVersion: false,
    preferredVersion: false,
    stability: 'GA',
    enabledByDefault: true,
    schema: 'Widget',
    custom: false,
    nameRule: 'subdomain',
    virtual: false,
    ...over,
  };
}

describe('ServedIndex', () => {
  it('binds each group and resource once, to its storage version', () => {
    const v1 = def('example.com', 'v1', { storageVersion: true });
    const v2 = def('example.com', 'v2', { preferredVersion: true });
    const bound: string[] = [];
    const index = new ServedIndex(
      [v1, v2, def('example.com', 'v3', { enabledByDefault: false })],
      (sd) => {
        bound.push(sd.version);
        return { storedAs: sd.version };
      },
      new Map(),
    );
    expect(bound).toEqual(['v1']);
    expect(index.served.map((s) => s.def.version)).toEqual(['v1', 'v2']);
    expect(index.lookup('example.com', 'v2', 'widgets')?.store).toEqual({ storedAs: 'v1' });
    expect(index.lookup('example.com', 'v3', 'widgets')).toBeUndefined();
    expect(index.byKind('example.com', 'Widget')?.def.version).toBe('v2');
    expect([...index.groupVersions()]).toEqual([['example.com', ['v1', 'v2']]]);
  });
});

describe('changing the served index', () => {
  const base = () => new ServedIndex([def('example.com', 'v1', { storageVersion: true, preferredVersion: true })], (d) => `store:${d.group}/${d.version}`, new Map());

  it.each<{ name: string; change: (ix: ServedIndex<string>) => void; paths: [string, string, string, string | undefined][]; kinds: [string, string, string | undefined][]; heard: string[] }>([
    {
      name: 'replace adds a new group and resource, bound once with its storage version',
      change: (ix) =>
        ix.replace(
          'toys.dev',
          'gadgets',
          [def('toys.dev', 'v1beta1', { kind: 'Gadget', resource: 'gadgets' }), def('toys.dev', 'v1', { kind: 'Gadget', resource: 'gadgets', storageVersion: true, preferredVersion: true })],
          (d) => `custom:${d.version}`,
        ),
      paths: [
        ['toys.dev', 'v1', 'gadgets', 'custom:v1'],
        ['toys.dev', 'v1beta1', 'gadgets', 'custom:v1'],
        ['example.com', 'v1', 'widgets', 'store:example.com/v1'],
      ],
      kinds: [['toys.dev', 'Gadget', 'v1']],
      heard: ['+toys.dev/v1beta1/gadgets', '+toys.dev/v1/gadgets'],
    },
    {
      name: 'replace of a served resource drops its old versions',
      change: (ix) => ix.replace('example.com', 'widgets', [def('example.com', 'v2', { storageVersion: true, preferredVersion: true })], () => 'new'),
      paths: [
        ['example.com', 'v1', 'widgets', undefined],
        ['example.com', 'v2', 'widgets', 'new'],
      ],
      kinds: [['example.com', 'Widget', 'v2']],
      heard: ['+example.com/v2/widgets', '-example.com/v1/widgets'],
    },
    {
      name: 'remove stops serving',
      change: (ix) => ix.remove('example.com', 'widgets'),
      paths: [['example.com', 'v1', 'widgets', undefined]],
      kinds: [['example.com', 'Widget', undefined]],
      heard: ['-example.com/v1/widgets'],
    },
    {
      name: 'removing what is not served changes nothing',
      change: (ix) => ix.remove('nothing.dev', 'things'),
      paths: [['example.com', 'v1', 'widgets', 'store:example.com/v1']],
      kinds: [],
      heard: [],
    },
  ])('$name', ({ change, paths, kinds, heard }) => {
    const ix = base();
    const got: string[] = [];
    ix.onChange((c) => {
      for (const s of c.added) got.push(`+${s.def.group}/${s.def.version}/${s.def.resource}`);
      for (const s of c.removed) got.push(`-${s.def.group}/${s.def.version}/${s.def.resource}`);
    });
    change(ix);
    for (const [g, v, r, store] of paths) expect(ix.lookup(g, v, r)?.store).toBe(store);
    for (const [g, k, version] of kinds) expect(ix.byKind(g, k)?.def.version).toBe(version);
    expect(got).toEqual(heard);
    expect(ix.served.length).toBe(new Set(ix.served.map((s) => `${s.def.group}/${s.def.version}/${s.def.resource}`)).size);
  });

  it('stops telling a listener once it unsubscribed', () => {
    const ix = base();
    let calls = 0;
    const stop = ix.onChange(() => calls++);
    ix.remove('example.com', 'widgets');
    stop();
    ix.replace('example.com', 'widgets', [def('example.com', 'v1')], () => 'x');
    expect(calls).toBe(1);
  });
});
