// Emits generated/registry.ts: `resources`, every served resource's registry
// entry (ResourceDef), sorted by group, version, resource. Reads the model only.
import type { ResourceDef } from '../templates/api-types.ts';
import type { Model } from '../model/types.ts';
import { literal, ModuleWriter } from './printer.ts';

/** The ResourceDef of a loaded resource, with keys in the contract's order. */
export function toResourceDef(r: Model['resources'][number]): ResourceDef {
  return {
    group: r.group,
    version: r.version,
    kind: r.kind,
    listKind: r.listKind,
    resource: r.resource,
    singular: r.singular,
    namespaced: r.namespaced,
    verbs: r.verbs,
    shortNames: r.shortNames,
    categories: r.categories,
    subresources: r.subresources.map((s) => ({
      name: s.name,
      kind: s.kind,
      ...(s.group !== undefined ? { group: s.group } : {}),
      ...(s.version !== undefined ? { version: s.version } : {}),
      verbs: s.verbs,
      ...(s.scale !== undefined ? { scale: s.scale } : {}),
    })),
    printerColumns: r.printerColumns.map((c) => ({
      name: c.name,
      type: c.type,
      ...(c.format ? { format: c.format } : {}),
      ...(c.description ? { description: c.description } : {}),
      priority: c.priority,
      jsonPath: c.jsonPath,
      ...(c.formatter ? { formatter: c.formatter } : {}),
    })),
    selectableFields: r.selectableFields,
    allowCreateOnUpdate: r.allowCreateOnUpdate,
    storageVersion: r.storageVersion,
    preferredVersion: r.preferredVersion,
    stability: r.stability,
    enabledByDefault: r.enabledByDefault,
    ...(r.deprecation ? { deprecation: r.deprecation } : {}),
    schema: r.schema,
    custom: r.custom,
    nameRule: r.nameRule,
    virtual: r.virtual,
    ...(r.conversion ? { conversion: r.conversion } : {}),
  };
}

export function emitRegistry(model: Model): string {
  const w = new ModuleWriter('The resource registry: every served resource, sorted by group, version, resource.');
  w.importType('ResourceDef', './api-types.ts');
  w.line(`export const resources: ResourceDef[] = ${literal(model.resources.map(toResourceDef))};`);
  return w.toString();
}
