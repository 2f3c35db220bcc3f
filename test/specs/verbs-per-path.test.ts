// Verbs per path shape against the 1.31 reference: for every kind the
// registry serves, the HTTP methods our router accepts on each path
// template (the all-namespaces collection `/apis/g/v/r`, the namespaced
// collection `/apis/g/v/namespaces/{namespace}/r`, the object `/{name}`, the
// legacy `/watch/` paths and each subresource) equal the operations the
// reference swagger lists on that template. Differences that other work
// will close are listed below, each with its reason; the list must stay
// exact (an entry that no longer differs fails too). Skips when the
// reference is absent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceDef, Verb } from '../../generated/api-types.ts';
import { resources } from '../../generated/registry.ts';
import { PROXY_EXTRA_METHODS, isProxySubresource, verbsAt } from '../../runtime/http/path-verbs.ts';
import { referenceDir } from './spec-tree.ts';

const ref = referenceDir();
if (!ref) console.warn('verbs per path: reference data not found (../shared/reference or $SPECSERVER_REFERENCE_DIR); skipping');

const METHOD: Record<Verb, string> = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' };
const HTTP = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const prefixOf = (d: ResourceDef) => (d.group ? `/apis/${d.group}/${d.version}` : `/api/${d.version}`);

/** Every path template the router serves for a resource, with its methods (a proxy's `/{path}` form, HEAD and OPTIONS included). */
function routed(d: ResourceDef): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (path: string, verbs: Set<Verb>, extra: string[] = []) => {
    if (verbs.size === 0) return;
    const methods = out.get(path) ?? new Set<string>();
    for (const v of verbs) methods.add(METHOD[v]);
    for (const m of extra) methods.add(m);
    out.set(path, methods);
  };
  for (const watchPath of [false, true])
    for (const namespacePath of [false, true]) {
      const base = `${prefixOf(d)}${watchPath ? '/watch' : ''}${namespacePath ? '/namespaces/{namespace}' : ''}/${d.resource}`;
      add(base, verbsAt(d, 'collection', { namespacePath, watchPath }));
      add(`${base}/{name}`, verbsAt(d, 'object', { namespacePath, watchPath }));
      for (const s of d.subresources) {
        const verbs = verbsAt(d, 'subresource', { namespacePath, watchPath, subresource: s.name });
        if (!isProxySubresource(s)) {
          add(`${base}/{name}/${s.name}`, verbs);
          continue;
        }
        add(`${base}/{name}/${s.name}`, verbs, PROXY_EXTRA_METHODS);
        add(`${base}/{name}/${s.name}/{path}`, verbs, PROXY_EXTRA_METHODS);
      }
    }
  return out;
}

/** The reference's operations on the templates of a resource (a proxy's `/{path}` forms included). */
function upstream(paths: Record<string, Record<string, unknown>>, d: ResourceDef): Map<string, Set<string>> {
  const prefix = prefixOf(d).replace(/\./g, '\\.');
  const re = new RegExp(`^${prefix}(/watch)?(/namespaces/\\{namespace\\})?/${d.resource}(/\\{name\\}(/[a-z]+(/\\{path\\})?)?)?$`);
  const out = new Map<string, Set<string>>();
  for (const [path, item] of Object.entries(paths)) {
    if (!re.test(path)) continue;
    // the Namespace object's own paths (/namespaces/{name}/...) belong to namespaces only
    if (d.resource !== 'namespaces' && /\/namespaces\/\{name\}/.test(path)) continue;
    const methods = Object.keys(item).filter((k) => HTTP.includes(k));
    if (methods.length) out.set(path, new Set(methods.map((m) => m.toUpperCase())));
  }
  return out;
}

/** `METHOD path` lines served by one side only. */
function differences(ours: Map<string, Set<string>>, theirs: Map<string, Set<string>>): string[] {
  const lines = (m: Map<string, Set<string>>) => new Set([...m].flatMap(([p, ms]) => [...ms].map((x) => `${x} ${p}`)));
  const a = lines(ours);
  const b = lines(theirs);
  return [...[...a].filter((x) => !b.has(x)).map((x) => `ours only: ${x}`), ...[...b].filter((x) => !a.has(x)).map((x) => `upstream only: ${x}`)].sort();
}

/** Differences other work closes (kept exact: fixing one means deleting it here), with the reason. None are left. */
const KNOWN: string[] = [];

describe.skipIf(!ref)('verbs per path shape against the 1.31 reference', () => {
  const swagger = ref ? (JSON.parse(readFileSync(join(ref, 'openapi/swagger-v1.31.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> }) : { paths: {} };
  const inReference = resources.filter((d) => Object.keys(swagger.paths).some((p) => p.startsWith(`${prefixOf(d)}/`)));

  it('covers every kind of the registry that the reference serves', () => {
    expect(inReference.length).toBeGreaterThan(50);
    for (const d of inReference) expect(upstream(swagger.paths, d).size, `${prefixOf(d)}/${d.resource}`).toBeGreaterThan(0);
  });

  it('each path template serves the reference methods', () => {
    const found: string[] = [];
    for (const d of inReference) found.push(...differences(routed(d), upstream(swagger.paths, d)));
    expect(found.sort()).toEqual([...KNOWN].sort());
  });
});
