// What selectors see of an object: its labels, metadata.name,
// metadata.namespace and the per-type selectable fields a resource declares
// (dotted paths such as `type`, `spec.nodeName`, `involvedObject.kind`).
// Builds the `attrs` function a Predicate and a Cacher take. Pure.
import type { Obj, ObjectAttrs } from '../interface.ts';

function fieldValue(obj: Obj, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean') return String(cur);
  return '';
}

/** An attrs function for a resource with the given selectable field paths. */
export function attrsFor(selectableFields: readonly string[] = []): (obj: Obj) => ObjectAttrs {
  const extra = selectableFields.filter((f) => f !== 'metadata.name' && f !== 'metadata.namespace');
  return (obj: Obj) => {
    const fields: Record<string, string> = {
      'metadata.name': obj.metadata?.name ?? '',
      'metadata.namespace': obj.metadata?.namespace ?? '',
    };
    for (const f of extra) fields[f] = fieldValue(obj, f);
    return { labels: obj.metadata?.labels ?? {}, fields };
  };
}

/** The field names a field selector may use for such a resource. */
export function supportedFields(selectableFields: readonly string[] = []): string[] {
  return ['metadata.name', 'metadata.namespace', ...selectableFields.filter((f) => f !== 'metadata.name' && f !== 'metadata.namespace')];
}
