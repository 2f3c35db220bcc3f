// CertificateSigningRequest (certificates.k8s.io/v1, cluster-scoped) as
// upstream's strategies have it: a create starts with an empty status (no
// pre-approved requests; spec.username, uid, groups and extra are the
// requesting user's, set by the CSR user admission step before this
// runs); updates of the main resource change neither spec nor status; the
// status subresource changes status but keeps every Approved and Denied
// condition as stored; the approval subresource changes only the
// conditions. Condition timestamps are filled by the server.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { Strategy, SubresourceStrategy } from '../../strategy.ts';
import { statusWithMetadata } from '../common/status.ts';
import { validateCSR, validateCSRUpdate } from './validate.ts';

const nowRFC3339 = (now: number) => new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** lastUpdateTime now when unset; lastTransitionTime kept from the stored condition of that type and status, else now. */
export function populateConditionTimestamps(obj: Obj, old: Obj, now = Date.now()): void {
  const conditions: Obj[] = Array.isArray(obj.status?.conditions) ? obj.status.conditions : [];
  const olds: Obj[] = Array.isArray(old.status?.conditions) ? old.status.conditions : [];
  const t = nowRFC3339(now);
  for (const c of conditions) {
    if (!c || typeof c !== 'object') continue;
    if (!c.lastUpdateTime) c.lastUpdateTime = t;
    if (!c.lastTransitionTime) {
      const prev = olds.find((o) => o?.type === c.type);
      c.lastTransitionTime = prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : t;
    }
  }
}

/** The request's conditions with every condition of `type` replaced by the stored ones, in place of the request's first. */
export function preserveConditions(obj: Obj, old: Obj, type: string): void {
  const conditions: Obj[] = Array.isArray(obj.status?.conditions) ? obj.status.conditions : [];
  const stored: Obj[] = (Array.isArray(old.status?.conditions) ? old.status.conditions : []).filter((c: Obj) => c?.type === type);
  const out: Obj[] = [];
  let placed = false;
  for (const c of conditions) {
    if (c?.type !== type) out.push(c);
    else if (!placed) {
      out.push(...structuredClone(stored));
      placed = true;
    }
  }
  if (!placed) out.push(...structuredClone(stored));
  if (out.length || obj.status) (obj.status ??= {}).conditions = out;
  if (out.length === 0 && obj.status) delete obj.status.conditions;
}

function csrStatusStrategy(): SubresourceStrategy {
  const inner = statusWithMetadata();
  return {
    resetFields: inner.resetFields,
    prepareForUpdate(obj, old) {
      inner.prepareForUpdate(obj, old);
      preserveConditions(obj, old, 'Approved');
      preserveConditions(obj, old, 'Denied');
      populateConditionTimestamps(obj, old);
    },
    validateUpdate(obj, old) {
      return [...inner.validateUpdate(obj, old), ...validateCSRUpdate(obj, old)];
    },
  };
}

function csrApprovalStrategy(): SubresourceStrategy {
  const inner = statusWithMetadata();
  return {
    resetFields: inner.resetFields,
    prepareForUpdate(obj, old) {
      const conditions = obj.status?.conditions;
      inner.prepareForUpdate(obj, old);
      obj.status = structuredClone(old.status ?? {});
      if (conditions === undefined) delete obj.status.conditions;
      else obj.status.conditions = conditions;
      populateConditionTimestamps(obj, old);
    },
    validateUpdate(obj, old) {
      return [...inner.validateUpdate(obj, old), ...validateCSRUpdate(obj, old)];
    },
  };
}

export function certificateSigningRequestStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      obj.status = {};
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      if (old.spec === undefined) delete obj.spec;
      else obj.spec = structuredClone(old.spec);
    },
    validate(obj) {
      return [...base.validate(obj), ...validateCSR(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateCSRUpdate(obj, old)];
    },
    subresources: { ...(base.subresources ?? {}), status: csrStatusStrategy(), approval: csrApprovalStrategy() },
  };
}
