// The folder-level import graph of runtime/ and the rules it must keep:
// folders are stacked in declared layers (bottom first); a folder may import
// only folders in lower layers, never a folder in its own layer or above;
// there is no cycle between folders; and the bottom folder imports nothing
// else from runtime/. Pure functions over an import list, so the rules can
// be tested on synthetic input as well as on the real tree.

import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

export interface ImportEdge {
  /** Importing file, relative to the repository root (`runtime/http/app.ts`). */
  from: string;
  /** Imported file, relative to the repository root. */
  to: string;
}

/** A folder import the layer order forbids but that is allowed for now, with the reason. */
export interface LayerException {
  from: string;
  to: string;
  why: string;
}

/** The folder of a runtime file: its first directory under runtime/, or `(top)` for files directly in runtime/. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'runtime') return '(outside)';
  return parts.length > 2 ? parts[1] : '(top)';
}

const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every relative import of every non-test .ts file under `<root>/runtime`, resolved to repository paths. */
export function collectImports(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const from = relative(root, p).split(sep).join('/');
        const src = readFileSync(p, 'utf8');
        for (const m of src.matchAll(SPECIFIER)) edges.push({ from, to: posix.normalize(posix.join(posix.dirname(from), m[1])) });
      }
    }
  };
  walk(join(root, 'runtime'));
  return edges;
}

/**
 * The violations of the layer rules in an import list: imports of a folder in
 * the same or a higher layer (unless listed as an exception), folders missing
 * from the layers, imports out of the bottom layer's folder into runtime/,
 * and cycles between folders.
 */
export function layerViolations(edges: ImportEdge[], layers: string[][], exceptions: LayerException[] = []): string[] {
  const level = new Map<string, number>();
  layers.forEach((folders, i) => folders.forEach((f) => level.set(f, i)));
  const bottom = layers[0] ?? [];
  const excepted = new Set(exceptions.map((x) => `${x.from} -> ${x.to}`));
  const out = new Set<string>();
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (b === '(outside)' || a === b) continue;
    if (!level.has(a)) out.add(`folder ${a} is not in the declared layers (${from})`);
    if (!level.has(b)) out.add(`folder ${b} is not in the declared layers (${to})`);
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
    if (bottom.includes(a)) {
      out.add(`${a} is the bottom layer and imports nothing else from runtime/: ${from} imports ${to}`);
      continue;
    }
    if (!level.has(a) || !level.has(b) || excepted.has(`${a} -> ${b}`)) continue;
    if (level.get(b)! >= level.get(a)!) out.add(`${a} imports ${b}, which is not below it: ${from} imports ${to}`);
  }
  for (const cycle of folderCycles(graph)) out.add(`cycle between folders: ${cycle.join(' -> ')}`);
  return [...out];
}

/** One cycle per strongly connected group of folders, as a closed path. */
function folderCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === 'open') cycles.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return cycles;
}
