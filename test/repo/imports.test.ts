// Import direction between runtime/ folders: the layer order below is the
// architecture (docs/architecture.md, "Layers"); a folder may import only
// folders in lower layers, folders never import each other in a cycle, and
// the bottom layer (runtime/api/, the vocabulary everyone shares, and
// runtime/schema/, the schema translations shared with codegen) imports
// nothing else from runtime/. A new folder must be placed in a layer here.

import { describe, expect, it } from 'vitest';
import { collectImports, layerViolations, type ImportEdge, type LayerException } from './import-graph.ts';
import { projectRoot } from '../support/clients.ts';

/** Bottom first. Folders in one layer do not import each other. */
const LAYERS: string[][] = [
  ['api', 'schema', 'features'],
  ['codec', 'cel', 'auth', 'config', 'logging'],
  ['storage', 'apply', 'patch'],
  ['authz', 'webhook-client', 'metrics'],
  ['table', 'audit'],
  ['registry'],
  ['admission'],
  ['http'],
  ['controllers', 'gc'],
  ['builtins'],
  ['server'],
  ['(top)'],
];

/** Imports against the order that are allowed for now; each says why. None today. */
const EXCEPTIONS: LayerException[] = [];

describe('runtime/ import direction', () => {
  it('keeps the declared layer order, has no folder cycles, and api/ imports nothing from runtime/', () => {
    const edges = collectImports(projectRoot);
    expect(edges.length).toBeGreaterThan(100);
    expect(layerViolations(edges, LAYERS, EXCEPTIONS)).toEqual([]);
  });

  const e = (from: string, to: string): ImportEdge => ({ from, to });
  const rows: [string, ImportEdge[], LayerException[], string[]][] = [
    ['a downward import is fine', [e('runtime/http/app.ts', 'runtime/registry/store.ts')], [], []],
    [
      'an import of a higher folder',
      [e('runtime/registry/store.ts', 'runtime/http/app.ts')],
      [],
      ['registry imports http, which is not below it: runtime/registry/store.ts imports runtime/http/app.ts'],
    ],
    [
      'an import within one layer',
      [e('runtime/controllers/namespace.ts', 'runtime/gc/garbage-collector.ts')],
      [],
      ['controllers imports gc, which is not below it: runtime/controllers/namespace.ts imports runtime/gc/garbage-collector.ts'],
    ],
    ['an excepted upward import', [e('runtime/registry/store.ts', 'runtime/http/app.ts')], [{ from: 'registry', to: 'http', why: 'test' }], []],
    [
      'api importing another folder',
      [e('runtime/api/errors.ts', 'runtime/storage/interface.ts')],
      [],
      ['api is the bottom layer and imports nothing else from runtime/: runtime/api/errors.ts imports runtime/storage/interface.ts'],
    ],
    ['api importing generated types', [e('runtime/api/served-index.ts', 'generated/api-types.ts')], [], []],
    ['a folder not in the layers', [e('runtime/newthing/x.ts', 'runtime/api/errors.ts')], [], ['folder newthing is not in the declared layers (runtime/newthing/x.ts)']],
    [
      'a cycle (visible even when excepted)',
      [e('runtime/http/app.ts', 'runtime/registry/store.ts'), e('runtime/registry/store.ts', 'runtime/http/status.ts')],
      [{ from: 'registry', to: 'http', why: 'test' }],
      ['cycle between folders: http -> registry -> http'],
    ],
  ];
  it.each(rows)('%s', (_name, edges, exceptions, want) => {
    expect(layerViolations(edges, LAYERS, exceptions)).toEqual(want);
  });
});
