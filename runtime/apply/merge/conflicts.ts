// Apply conflicts: the error an apply raises when it would change fields
// another manager owns, with kube-apiserver's message text and Status causes.
// Boundary: formatting only; managers arrive as their identifier JSON
// (manager, operation, apiVersion, subresource) and print as upstream does.
import type { StatusCause } from '../../api/errors.ts';
import { pathToString, type Path } from '../fieldpath/element.ts';

export interface Conflict {
  /** Manager identifier (JSON of manager/operation/apiVersion/subresource). */
  managerId: string;
  path: Path;
}

/** Raised by the updater; FieldManager turns it into ApplyConflictError. */
export class MergeConflicts extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(`${conflicts.length} conflict(s)`);
  }
}

/** How upstream names a manager in conflict messages: `"name"`, `"name" using apps/v1`, `"name" with subresource "status"`. */
export function printManager(managerId: string): string {
  let e: { manager?: string; operation?: string; apiVersion?: string; subresource?: string; time?: string };
  try {
    e = JSON.parse(managerId);
  } catch {
    return JSON.stringify(managerId);
  }
  if (typeof e !== 'object' || e === null) return JSON.stringify(managerId);
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') {
    s += ` using ${e.apiVersion ?? ''}`;
    if (e.time) s += ` at ${e.time}`;
  }
  return s;
}

export class ApplyConflictError extends Error {
  readonly code = 409;
  readonly reason = 'Conflict';
  /** Conflicting fields with their owner's manager name, sorted by owner then path. */
  readonly conflicts: { manager: string; field: string }[];
  /** Status details causes for the 409 response. */
  readonly causes: StatusCause[];

  constructor(raw: Conflict[]) {
    const sorted = [...raw].sort((a, b) => (a.managerId < b.managerId ? -1 : a.managerId > b.managerId ? 1 : 0));
    super(conflictMessage(sorted));
    this.name = 'ApplyConflictError';
    this.conflicts = sorted.map((c) => ({ manager: managerName(c.managerId), field: pathToString(c.path) }));
    this.causes = sorted.map((c) => ({
      reason: 'FieldManagerConflict' as const,
      message: `conflict with ${printManager(c.managerId)}`,
      field: pathToString(c.path),
    }));
  }

  /** The metav1.Status body of the 409 response, as kube-apiserver sends it. */
  status(): { kind: 'Status'; apiVersion: 'v1'; metadata: Record<string, never>; status: 'Failure'; message: string; reason: 'Conflict'; details: { causes: StatusCause[] }; code: 409 } {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: 'Conflict',
      details: { causes: this.causes.map((c) => ({ ...c })) },
      code: 409,
    };
  }
}

function managerName(id: string): string {
  try {
    const e = JSON.parse(id);
    if (e && typeof e.manager === 'string') return e.manager;
  } catch {
    /* plain name */
  }
  return id;
}

function conflictMessage(conflicts: Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].managerId)}: ${pathToString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const l = byManager.get(c.managerId);
    if (l) l.push(c.path);
    else byManager.set(c.managerId, [c.path]);
  }
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m)!) lines.push(`- ${pathToString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
