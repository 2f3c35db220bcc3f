// Scenarios: every list and map type: atomic lists (whole list, single
// owner), sets (scalar elements), list-type maps (entries by key, defaulted
// key fields), atomic and granular maps, nested lists, untyped fields, and
// the merged order of list items.
import { describe, expect, it } from 'vitest';
import { runScenario } from './run.ts';

const base = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' } };

describe('list and map types', () => {
  it('atomic list: one owner for the whole list, replaced whole', () => {
    runScenario([
      {
        manager: 'a',
        object: { ...base, spec: { args: ['x', 'y'] } },
        expectManaged: { 'a/Apply': { 'f:spec': { 'f:args': {} } } },
      },
      {
        manager: 'b',
        object: { ...base, spec: { args: ['z'] } },
        expectConflicts: [{ manager: 'a', field: '.spec.args' }],
      },
      {
        manager: 'b',
        object: { ...base, spec: { args: ['z'] } },
        force: true,
        expectObject: { ...base, spec: { args: ['z'] } },
        expectManaged: { 'b/Apply': { 'f:spec': { 'f:args': {} } } },
      },
    ]);
  });

  it('atomic list inside list-map items is a leaf of the item', () => {
    runScenario([
      {
        manager: 'a',
        object: { ...base, spec: { containers: [{ name: 'c', args: ['1'] }] } },
        expectManaged: { 'a/Apply': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:args': {}, 'f:name': {} } } } } },
      },
    ]);
  });

  it('set: each scalar element is owned on its own and merges with others', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { tags: ['x', 'y'] } } },
      {
        manager: 'b',
        object: { ...base, spec: { tags: ['y', 'z'] } },
        expectObject: { ...base, spec: { tags: ['x', 'y', 'z'] } },
        expectManaged: {
          'a/Apply': { 'f:spec': { 'f:tags': { 'v:"x"': {}, 'v:"y"': {} } } },
          'b/Apply': { 'f:spec': { 'f:tags': { 'v:"y"': {}, 'v:"z"': {} } } },
        },
      },
      {
        manager: 'a',
        object: { ...base, spec: { tags: [] } },
        expectObject: { ...base, spec: { tags: ['y', 'z'] } },
      },
    ]);
  });

  it('list map: entries by key, fields owned per entry, conflicts per field', () => {
    runScenario([
      {
        manager: 'a',
        object: {
          ...base,
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1' },
              { name: 'log', image: 'fluent' },
            ],
          },
        },
        expectManaged: {
          'a/Apply': {
            'f:spec': {
              'f:containers': {
                'k:{"name":"log"}': { '.': {}, 'f:image': {}, 'f:name': {} },
                'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} },
              },
            },
          },
        },
      },
      {
        manager: 'b',
        object: { ...base, spec: { containers: [{ name: 'web', env: [{ name: 'E', value: 'v' }] }] } },
        expectObject: {
          ...base,
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1', env: [{ name: 'E', value: 'v' }] },
              { name: 'log', image: 'fluent' },
            ],
          },
        },
        expectManaged: {
          'a/Apply': {
            'f:spec': {
              'f:containers': {
                'k:{"name":"log"}': { '.': {}, 'f:image': {}, 'f:name': {} },
                'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} },
              },
            },
          },
          'b/Apply': {
            'f:spec': {
              'f:containers': {
                'k:{"name":"web"}': {
                  '.': {},
                  'f:env': { 'k:{"name":"E"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                  'f:name': {},
                },
              },
            },
          },
        },
      },
      {
        manager: 'b',
        object: { ...base, spec: { containers: [{ name: 'web', image: 'nginx:2' }] } },
        expectConflicts: [{ manager: 'a', field: '.spec.containers[name="web"].image' }],
        expectMessage: 'Apply failed with 1 conflict: conflict with "a": .spec.containers[name="web"].image',
      },
      // a drops the log container: it goes; web stays because b shares it.
      {
        manager: 'a',
        object: { ...base, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } },
        expectObject: { ...base, spec: { containers: [{ name: 'web', image: 'nginx:1', env: [{ name: 'E', value: 'v' }] }] } },
      },
      // a drops web entirely: the image goes, the item stays for b.
      {
        manager: 'a',
        object: { ...base, spec: { paused: true } },
        expectObject: { ...base, spec: { paused: true, containers: [{ name: 'web', env: [{ name: 'E', value: 'v' }] }] } },
      },
    ]);
  });

  it('list map with a multi-field key and a defaulted key field', () => {
    runScenario([
      {
        manager: 'a',
        object: { ...base, spec: { ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }] } },
        expectManaged: {
          'a/Apply': {
            'f:spec': {
              'f:ports': {
                'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} },
                'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
              },
            },
          },
        },
      },
    ]);
  });

  it('a list-map item without its key is rejected (400)', () => {
    expect(() => runScenario([{ manager: 'a', object: { ...base, spec: { containers: [{ image: 'x' }] } } }])).toThrow(/omits key field "name"/);
    expect(() => runScenario([{ manager: 'a', object: { ...base, spec: { containers: [{ name: 'x' }, { name: 'x' }] } } }])).toThrow(/duplicate entries/);
  });

  it('granular map: keys owned one by one', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { config: { a: '1' } } } },
      {
        manager: 'b',
        object: { ...base, spec: { config: { b: '2' } } },
        expectObject: { ...base, spec: { config: { a: '1', b: '2' } } },
        expectManaged: {
          'a/Apply': { 'f:spec': { 'f:config': { 'f:a': {} } } },
          'b/Apply': { 'f:spec': { 'f:config': { 'f:b': {} } } },
        },
      },
    ]);
  });

  it('atomic map (map type and a struct marked atomic): one owner, replaced whole', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { frozen: { a: '1' }, selector: { matchLabels: { app: 'x' } } } }, expectManaged: { 'a/Apply': { 'f:spec': { 'f:frozen': {}, 'f:selector': {} } } } },
      {
        manager: 'b',
        object: { ...base, spec: { frozen: { b: '2' } } },
        expectConflicts: [{ manager: 'a', field: '.spec.frozen' }],
      },
      {
        manager: 'a',
        object: { ...base, spec: { frozen: { b: '2' }, selector: { matchLabels: { app: 'y' } } } },
        expectObject: { ...base, spec: { frozen: { b: '2' }, selector: { matchLabels: { app: 'y' } } } },
      },
    ]);
  });

  it('nested structs and lists: an update records parents it created with "."', () => {
    runScenario([
      {
        op: 'update',
        manager: 'ctl',
        object: { ...base, spec: { template: { labels: { app: 'x' }, containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] } } },
        expectManaged: {
          'ctl/Update': {
            'f:spec': {
              '.': {},
              'f:template': {
                '.': {},
                'f:containers': { '.': {}, 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:cpu': {} } } } },
                'f:labels': { '.': {}, 'f:app': {} },
              },
            },
          },
        },
      },
    ]);
  });

  it('untyped (deduced) field: maps granular, lists atomic, undeclared entries are members', () => {
    runScenario([
      {
        manager: 'a',
        object: { ...base, spec: { extra: { m: { k: 'v' }, l: [1, 2] } } },
        expectManaged: { 'a/Apply': { 'f:spec': { 'f:extra': { 'f:l': {}, 'f:m': { '.': {}, 'f:k': {} } } } } },
      },
      {
        manager: 'b',
        object: { ...base, spec: { extra: { m: { j: 'w' } } } },
        expectObject: { ...base, spec: { extra: { m: { k: 'v', j: 'w' }, l: [1, 2] } } },
      },
    ]);
  });

  it('merged order: the configuration orders the items it names, others keep their place', () => {
    const c = (name: string) => ({ name });
    runScenario([
      { op: 'update', manager: 'u', object: { ...base, spec: { containers: [c('a'), c('x'), c('b'), c('c')] } } },
      {
        manager: 'm',
        object: { ...base, spec: { containers: [c('c'), c('n'), c('a')] } },
        expectObject: { ...base, spec: { containers: [c('x'), c('b'), c('c'), c('n'), c('a')] } },
      },
    ]);
  });

  it('custom resources without a schema type are schemaless: lists atomic', () => {
    runScenario(
      [
        {
          manager: 'a',
          object: { apiVersion: 'x/v1', kind: 'Crd', metadata: { name: 'a' }, spec: { items: [{ name: 'i' }], m: { k: 1 } } },
          expectManaged: { 'a/Apply': { 'f:spec': { '.': {}, 'f:items': {}, 'f:m': { '.': {}, 'f:k': {} } } } },
        },
      ],
      null,
      { typeName: 'example.com.v1.Crd', unstructured: true },
    );
    expect(() => runScenario([], null, { typeName: 'missing' })).toThrow(/no type/);
  });
});
