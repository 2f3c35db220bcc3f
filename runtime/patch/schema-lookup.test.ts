// Lookups in the merge schema: field strategies and merge keys, list
// elements, string-keyed maps, unknown types and fields.
import { describe, expect, it } from 'vitest';
import { PatchError } from './errors.ts';
import { listElement, lookupField, rootNode, splitStrategy } from './schema-lookup.ts';
import { DAEMONSET, testSchema, WIDGET } from './test-fixtures.ts';

describe('splitStrategy', () => {
  it.each([
    [undefined, { retainKeys: false, strategy: '' }],
    ['merge', { retainKeys: false, strategy: 'merge' }],
    ['replace', { retainKeys: false, strategy: 'replace' }],
    ['retainKeys', { retainKeys: true, strategy: '' }],
    ['merge,retainKeys', { retainKeys: true, strategy: 'merge' }],
    ['retainKeys,merge', { retainKeys: true, strategy: 'merge' }],
  ])('%s', (raw, want) => {
    expect(splitStrategy(raw)).toEqual(want);
  });

  it.each([
    ['merge,replace', '[merge replace]'],
    ['a,b,c', '[a b c]'],
  ])('%s is refused', (raw, shown) => {
    expect(() => splitStrategy(raw)).toThrow(PatchError);
    expect(() => splitStrategy(raw)).toThrow(`unexpected patch strategy: ${shown}`);
  });
});

describe('lookupField', () => {
  const pod = lookupField(lookupField(lookupField(rootNode(testSchema, DAEMONSET), 'spec').node, 'template').node, 'spec').node;

  it('finds strategies and merge keys of list fields and their element types', () => {
    const containers = lookupField(pod, 'containers');
    expect({ strategy: containers.strategy, mergeKey: containers.mergeKey, retainKeys: containers.retainKeys }).toEqual({ strategy: 'merge', mergeKey: 'name', retainKeys: false });
    const env = lookupField(listElement(containers.node), 'env');
    expect([env.strategy, env.mergeKey]).toEqual(['merge', 'name']);
    const volumes = lookupField(pod, 'volumes');
    expect([volumes.strategy, volumes.mergeKey, volumes.retainKeys]).toEqual(['merge', 'name', true]);
  });

  it('gives no metadata for lists without strategy, unknown fields and unknown types', () => {
    expect(lookupField(pod, 'tolerations').strategy).toBe('');
    const unknown = lookupField(pod, 'noSuchField');
    expect([unknown.strategy, unknown.mergeKey, unknown.node.atom]).toEqual(['', '', undefined]);
    const noType = rootNode(testSchema, 'no.such.Type');
    expect(lookupField(noType, 'x').node.atom).toBeUndefined();
    expect(listElement(noType).atom).toBeUndefined();
  });

  it('resolves string-keyed maps to their element type', () => {
    const labels = lookupField(lookupField(rootNode(testSchema, DAEMONSET), 'metadata').node, 'labels');
    expect(lookupField(labels.node, 'app').node.atom).toEqual({ scalar: 'string' });
  });

  it('reads replace and retainKeys strategies', () => {
    const w = rootNode(testSchema, WIDGET);
    expect(lookupField(w, 'replaced').strategy).toBe('replace');
    expect(lookupField(w, 'union')).toMatchObject({ retainKeys: true, strategy: '' });
  });
});
