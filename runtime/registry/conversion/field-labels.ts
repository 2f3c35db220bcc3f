// Field-selector labels across the versions of one stored resource:
// upstream converts a request's field labels per version (events.k8s.io/v1
// `regarding.kind` is core's `involvedObject.kind`). A version's labels that
// name another at its hub are declared data (VersionConversion.fieldLabels,
// derived by codegen from the renames); a label goes from the request's
// version to the hub, then from the hub to the storage version, whose
// objects the store's selectable fields are read from.

import type { ResourceDef } from '../../../generated/api-types.ts';

/** The request version's label as the storage version names it; undefined when both versions use every label as it is. */
export function fieldLabelMapper(def: ResourceDef, storageDef: ResourceDef): ((label: string) => string) | undefined {
  if (def === storageDef) return undefined;
  const toHub = def.conversion?.fieldLabels ?? {};
  const fromHub: Record<string, string> = {};
  for (const [label, hub] of Object.entries(storageDef.conversion?.fieldLabels ?? {})) fromHub[hub] = label;
  if (Object.keys(toHub).length === 0 && Object.keys(fromHub).length === 0) return undefined;
  return (label) => {
    const hub = Object.hasOwn(toHub, label) ? toHub[label] : label;
    return Object.hasOwn(fromHub, hub) ? fromHub[hub] : hub;
  };
}
