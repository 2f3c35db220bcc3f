// Finalizer name warnings: a finalizer that is neither one of the standard
// names nor domain-qualified (`example.com/cleanup`) is accepted with a
// Warning, as upstream does for every resource; on update only the
// finalizers the write adds are looked at.

import { FINALIZER_NAMESPACE } from '../../../api/k8s-names.ts';
import type { Obj } from '../../../storage/interface.ts';

const STANDARD = new Set([FINALIZER_NAMESPACE, 'orphan', 'foregroundDeletion']);

function names(obj: Obj | undefined): string[] {
  const f = obj?.metadata?.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

export function finalizerWarning(name: string): string {
  return `metadata.finalizers: ${JSON.stringify(name)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`;
}

/** Warnings for the finalizers of obj that old (if any) did not have. */
export function finalizerWarnings(obj: Obj, old?: Obj): string[] {
  const before = new Set(names(old));
  const out: string[] = [];
  for (const name of new Set(names(obj))) {
    if (before.has(name) || STANDARD.has(name) || name.includes('/')) continue;
    out.push(finalizerWarning(name));
  }
  return out;
}
