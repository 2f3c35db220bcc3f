// Checks of the conversion declarations that go beyond one version's
// fields: a hub in another group (`hubGroup`: the kind is one set of objects
// with the hub group's resource of the same name, stored there, as
// kube-apiserver stores events.k8s.io Events as core Events), and the
// field-selector labels of a converted version (each, moved through the
// version's renames, must be a label its hub selects on: upstream's field
// label conversion, here derived from the renames). Errors name the file
// and the JSON path.
import type { ConversionRule } from '../templates/api-types.ts';
import type { LoadedResource } from '../model/types.ts';
import { CodegenError } from './errors.ts';

/**
 * A version whose hub is another group's: both serve the same resource
 * name with the same scope, and every version of this group's resource
 * goes to that hub group. Marks this group's versions as not stored (the
 * hub group's storage version holds them).
 */
export function checkCohabiting(file: string, at: string, own: LoadedResource, hub: LoadedResource, resources: LoadedResource[], hubGroupOf: (r: LoadedResource) => string): void {
  const name = (r: LoadedResource) => `${r.group || 'core'}/${r.version} ${r.resource}`;
  if (own.resource !== hub.resource) throw new CodegenError(file, at, `${name(own)} and its hub ${name(hub)} are not one resource: a hub in another group serves the same resource name`);
  if (own.namespaced !== hub.namespaced) throw new CodegenError(file, at, `${name(own)} and its hub ${name(hub)} differ in scope`);
  for (const r of resources) {
    if (r.group !== own.group || r.resource !== own.resource) continue;
    if (hubGroupOf(r) !== hub.group) {
      throw new CodegenError(file, at, `${name(r)} does not convert to ${hub.group || 'core'}: every version of a resource stored in another group converts to it`);
    }
    r.storageVersion = false;
  }
}

/** A field-selector label of a version, moved to its hub through the version's renames (in order). */
export function labelToHub(label: string, rules: readonly ConversionRule[]): string {
  let out = label;
  for (const r of rules) {
    if (r.op !== 'rename') continue;
    const from = r.from.join('.');
    if (out === from) out = r.to.join('.');
    else if (out.startsWith(`${from}.`)) out = `${r.to.join('.')}${out.slice(from.length)}`;
  }
  return out;
}

/**
 * Every selectable field of a converted version maps to one of its hub's;
 * the labels that change are recorded on the conversion (`fieldLabels`),
 * which is what the runtime reads.
 */
export function checkFieldLabels(file: string, at: string, own: LoadedResource, hub: LoadedResource): void {
  const conversion = own.conversion;
  if (!conversion) return;
  const changed: Record<string, string> = {};
  for (const label of own.selectableFields) {
    const mapped = labelToHub(label, conversion.rules);
    if (!hub.selectableFields.includes(mapped)) {
      const via = mapped === label ? '' : ` (${mapped} there)`;
      throw new CodegenError(file, at, `selectable field ${label} of ${own.group || 'core'}/${own.version} ${own.kind} is not one of its hub's${via}`);
    }
    if (mapped !== label) changed[label] = mapped;
  }
  if (Object.keys(changed).length > 0) conversion.fieldLabels = changed;
}
