// The names a CustomResourceDefinition is served under and its
// NamesAccepted and Established conditions, as apiextensions-apiserver's
// naming controller works them out: each requested name (plural, singular,
// short names, kind, list kind) is accepted when it is the one already
// accepted or no other CRD of the group has accepted it; a taken name keeps
// the previous accepted one and sets NamesAccepted False with the
// conflict's reason. Names of built-in resources of the group count as
// taken too (they would shadow the CRD's). Pure: the caller hands in the
// names in use.

import type { Obj } from '../../storage/interface.ts';
import type { CrdCondition } from '../../registry/strategies/apiextensions/lifecycle.ts';

export interface CrdNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

/**
 * Whether a CRD can gain from a name freed in its group: it is not being
 * deleted and some name it asks for is not accepted (or NamesAccepted is not
 * True). The others would be looked at again for nothing.
 */
export function waitsForNames(crd: Obj): boolean {
  if (crd.metadata?.deletionTimestamp) return false;
  const norm = (n: Partial<CrdNames> | undefined) => JSON.stringify([n?.plural ?? '', n?.singular ?? '', n?.kind ?? '', n?.listKind ?? '', n?.shortNames ?? [], n?.categories ?? []]);
  if (norm(crd.spec?.names) !== norm(crd.status?.acceptedNames)) return true;
  const cond = (crd.status?.conditions ?? []).find((c: { type?: string }) => c.type === 'NamesAccepted');
  return cond?.status !== 'True';
}

/** Names accepted by the CRDs (and built-in resources) of one group. */
export interface NamesInUse {
  resources: Set<string>;
  kinds: Set<string>;
}

/** The names in use in a group: every CRD's accepted names (the CRD itself included, as upstream reads them) and the built-ins'. */
export function namesInUse(crds: Obj[], group: string, builtins: { resource: string; singular: string; shortNames: string[]; kind: string; listKind: string }[] = []): NamesInUse {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of crds) {
    if (crd.spec?.group !== group) continue;
    const a: Partial<CrdNames> = crd.status?.acceptedNames ?? {};
    resources.add(a.plural ?? '');
    resources.add(a.singular ?? '');
    for (const s of a.shortNames ?? []) resources.add(s);
    kinds.add(a.kind ?? '');
    kinds.add(a.listKind ?? '');
  }
  for (const b of builtins) {
    for (const n of [b.resource, b.singular, ...b.shortNames]) resources.add(n);
    kinds.add(b.kind);
    kinds.add(b.listKind);
  }
  return { resources, kinds };
}

function taken(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

const sameList = (a: string[] = [], b: string[] = []) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface NamingResult {
  acceptedNames: CrdNames;
  namesAccepted: CrdCondition;
  established: CrdCondition;
}

/** The accepted names and the two conditions for a CRD, given the names in use in its group. */
export function calculateNames(crd: Obj, used: NamesInUse): NamingResult {
  const requested: CrdNames = crd.spec?.names ?? { plural: '', kind: '' };
  const accepted: CrdNames = crd.status?.acceptedNames ?? { plural: '', kind: '' };
  const next: CrdNames = { ...accepted };
  const cond: CrdCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const conflict = (reason: string, message: string) => {
    cond.status = 'False';
    cond.reason = reason;
    cond.message = message;
  };
  const check = (field: 'plural' | 'singular' | 'kind' | 'listKind', reason: string, set: Set<string>) => {
    const err = taken(requested[field] ?? '', accepted[field] ?? '', set);
    if (err) conflict(reason, err);
    else if (requested[field] !== undefined) next[field] = requested[field];
  };
  check('plural', 'PluralConflict', used.resources);
  check('singular', 'SingularConflict', used.resources);
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const own = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const s of requested.shortNames ?? []) {
      if (own.has(s) || s === accepted.plural || s === accepted.singular) continue;
      const err = taken(s, '', used.resources);
      if (err) errs.push(err);
    }
    // utilerrors.NewAggregate: one error as it is, several as a bracketed list
    if (errs.length) conflict('ShortNamesConflict', errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    else if (requested.shortNames !== undefined) next.shortNames = requested.shortNames;
    else delete next.shortNames;
  }
  check('kind', 'KindConflict', used.kinds);
  check('listKind', 'ListKindConflict', used.kinds);
  if (requested.categories !== undefined) next.categories = requested.categories;
  else delete next.categories;
  if (cond.status === 'Unknown') {
    cond.status = 'True';
    cond.reason = 'NoConflicts';
    cond.message = 'no conflicts found';
  }
  const old = (crd.status?.conditions as CrdCondition[] | undefined)?.find((c) => c.type === 'Established');
  let established: CrdCondition = old ? { ...old } : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && cond.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: next, namesAccepted: cond, established };
}

/** The Established condition the establishing controller sets once the names are accepted. */
export const ESTABLISHED: CrdCondition = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
