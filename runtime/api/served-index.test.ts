// The served-resource index: --runtime-config parsing and enabling, one
// binding per group and resource (made with the storage version), look-up
// by path and by kind (preferred version first).

import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import { ServedIndex, isEnabled, parseRuntimeConfig } from './served-index.ts';

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

describe('runtime config', () => {
  it('parses and applies the most specific setting', () => {
    const rc = parseRuntimeConfig('api/all=false, example.com/v1=true,example.com/v2/widgets');
    expect([...rc]).toEqual([
      ['api/all', false],
      ['example.com/v1', true],
      ['example.com/v2/widgets', true],
    ]);
    expect(isEnabled(def('example.com', 'v1'), rc)).toBe(true);
    expect(isEnabled(def('example.com', 'v2'), rc)).toBe(true);
    expect(isEnabled(def('other.com', 'v1'), rc)).toBe(false);
    expect(isEnabled(def('', 'v1'), parseRuntimeConfig('api/v1=false'))).toBe(false);
    expect(() => parseRuntimeConfig('api/all=maybe')).toThrow('invalid value in --runtime-config for api/all: maybe');
  });
});

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
