// The seed's marker spelling: spec files may write the Kubernetes schema
// markers as `x-svc-<name>` (x-svc-list-type, x-svc-list-map-keys,
// x-svc-map-type, x-svc-preserve-unknown-fields, x-svc-int-or-string,
// x-svc-embedded-resource, x-svc-validations, ...). Each becomes the
// `x-kubernetes-<name>` marker in place, so everything after loading (and
// everything served) sees only the x-kubernetes-* spelling. A node that
// spells one marker both ways with different values is a codegen error
// naming the file and the JSON path of the x-svc-* key.
import { CodegenError, jp } from './errors.ts';
import { isObject } from './schema-util.ts';

const SVC_PREFIX = 'x-svc-';
const K8S_PREFIX = 'x-kubernetes-';

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/** Rewrites x-svc-* keys of every object in `doc` (in place, keeping key order) to x-kubernetes-*. */
export function normalizeMarkerSpelling(file: string, at: string, doc: unknown): void {
  // An explicit stack: spec documents may nest deeper than the call stack is comfortable with.
  const stack: { node: unknown; path: string }[] = [{ node: doc, path: at }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push({ node: v, path: jp(path, i) }));
      continue;
    }
    if (!isObject(node)) continue;
    const keys = Object.keys(node);
    if (keys.some((k) => k.startsWith(SVC_PREFIX))) {
      const entries: [string, unknown][] = [];
      const seen = new Map<string, string>();
      for (const k of keys) {
        const target = k.startsWith(SVC_PREFIX) ? K8S_PREFIX + k.slice(SVC_PREFIX.length) : k;
        const other = seen.get(target);
        if (other !== undefined) {
          const svcKey = k.startsWith(SVC_PREFIX) ? k : other;
          if (!jsonEqual(node[k], node[other])) {
            throw new CodegenError(
              file,
              jp(path, svcKey),
              `${svcKey} ${JSON.stringify(node[svcKey])} contradicts ${target} ${JSON.stringify(node[target])}: one marker, two spellings, different values`,
            );
          }
          continue;
        }
        seen.set(target, k);
        entries.push([target, node[k]]);
      }
      for (const k of keys) delete node[k];
      for (const [k, v] of entries) node[k] = v;
    }
    for (const k of Object.keys(node)) stack.push({ node: node[k], path: jp(path, k) });
  }
}
