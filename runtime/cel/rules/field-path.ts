// A validation rule's `fieldPath`: a relative JSON path (`.spec.replicas`,
// `.labels['app.kubernetes.io/name']`) that must name a field of the rule's
// schema; errors of the rule are reported at that field. Returns the path
// segments as they print after the node's path (`.replicas`, `[key]`) or an
// error text. Boundary: parsing and checking against the schema.
import type { JSONSchema } from '../schema/types.ts';

export function parseRuleFieldPath(path: string, schema: JSONSchema): string[] | string {
  const out: string[] = [];
  let s: JSONSchema | undefined = schema;
  let i = 0;
  const fail = (why: string) => why;
  if (!path.startsWith('.') && !path.startsWith('[')) return fail('expected [ or . at the beginning of fieldPath');
  while (i < path.length) {
    let name: string;
    let bracket = false;
    if (path[i] === '.') {
      const m = /^[A-Za-z_$][\w$-]*/.exec(path.slice(i + 1));
      if (!m) return fail(`invalid field name at position ${i + 1}`);
      name = m[0];
      i += 1 + name.length;
    } else if (path[i] === '[') {
      const m = /^\[\s*'((?:\\.|[^'\\])*)'\s*\]/.exec(path.slice(i));
      if (!m) return fail(`expected a quoted key in brackets at position ${i}`);
      name = m[1].replace(/\\(.)/g, '$1');
      i += m[0].length;
      bracket = true;
    } else {
      return fail(`unexpected character '${path[i]}' at position ${i}`);
    }
    if (!s) return fail(`does not refer to a valid field`);
    if (s.properties && Object.hasOwn(s.properties, name)) {
      out.push(`.${name}`);
      s = s.properties[name];
    } else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      out.push(bracket ? `[${name}]` : `.${name}`);
      s = s.additionalProperties;
    } else {
      return fail(`does not refer to a valid field`);
    }
  }
  return out;
}

/** Joins a node path and rule path segments the way field paths print. */
export function joinPath(base: string, segments: string[]): string {
  let p = base;
  for (const seg of segments) p = seg.startsWith('[') ? `${p}${seg}` : p ? `${p}${seg}` : seg.slice(1);
  return p;
}
