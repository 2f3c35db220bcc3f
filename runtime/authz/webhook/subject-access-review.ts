// The SubjectAccessReview a webhook authorizer is sent and answers
// (authorization.k8s.io v1 or v1beta1): the spec built from the request's
// attributes as upstream builds it (resourceAttributes or
// nonResourceAttributes, user, groups, extra, uid; empty fields left out as
// Go's omitempty does; v1beta1 names the groups `group`), and a strict
// reading of the answer's status (allowed, denied, reason,
// evaluationError). An answer of the wrong shape is unreadable
// (SubjectAccessReviewFormatError), never half-used.

import type { Attributes } from '../attributes.ts';

export const SAR_VERSIONS = ['v1', 'v1beta1'] as const;
export type SarVersion = (typeof SAR_VERSIONS)[number];

/** `--authorization-webhook-version`, checked with upstream's text. */
export function parseSarVersion(v: string): SarVersion {
  if ((SAR_VERSIONS as readonly string[]).includes(v)) return v as SarVersion;
  throw new Error(`unsupported webhook authorizer version "${v}", supported versions are "v1", "v1beta1"`);
}

/** The v1 SubjectAccessReviewSpec (also what matchConditions see as `request`). */
export interface SarSpec {
  resourceAttributes?: Record<string, string>;
  nonResourceAttributes?: Record<string, string>;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

function compact(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ''));
}

export function sarSpec(a: Attributes): SarSpec {
  const spec: SarSpec = {};
  if (a.isResourceRequest) {
    spec.resourceAttributes = compact({
      namespace: a.namespace,
      verb: a.verb,
      group: a.apiGroup,
      version: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
    });
  } else {
    spec.nonResourceAttributes = compact({ path: a.path, verb: a.verb });
  }
  if (a.user.name) spec.user = a.user.name;
  if (a.user.groups.length) spec.groups = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length) spec.extra = Object.fromEntries(Object.entries(a.user.extra).map(([k, v]) => [k, [...v]]));
  if (a.user.uid) spec.uid = a.user.uid;
  return spec;
}

/** The request body in the webhook's version. */
export function sarRequest(version: SarVersion, spec: SarSpec): Record<string, unknown> {
  let wire: Record<string, unknown> = { ...spec };
  if (version === 'v1beta1' && spec.groups) {
    const { groups, ...rest } = spec;
    wire = { ...rest, group: groups };
  }
  return { apiVersion: `authorization.k8s.io/${version}`, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec: wire, status: { allowed: false } };
}

export interface SarStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
  evaluationError: string;
}

export class SubjectAccessReviewFormatError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function opt<T extends 'boolean' | 'string'>(o: Record<string, unknown>, k: string, kind: T): T extends 'boolean' ? boolean : string {
  const v = o[k];
  if (v === undefined || v === null) return (kind === 'boolean' ? false : '') as T extends 'boolean' ? boolean : string;
  if (typeof v !== kind) throw new SubjectAccessReviewFormatError(`status.${k} must be a ${kind}`);
  return v as T extends 'boolean' ? boolean : string;
}

/** Reads the answer body (already JSON-parsed). */
export function readSarStatus(body: unknown): SarStatus {
  if (!isObject(body)) throw new SubjectAccessReviewFormatError('the answer is not an object');
  if (body.kind !== undefined && body.kind !== 'SubjectAccessReview') throw new SubjectAccessReviewFormatError('the answer is not a SubjectAccessReview');
  const status = body.status ?? {};
  if (!isObject(status)) throw new SubjectAccessReviewFormatError('status must be an object');
  return { allowed: opt(status, 'allowed', 'boolean'), denied: opt(status, 'denied', 'boolean'), reason: opt(status, 'reason', 'string'), evaluationError: opt(status, 'evaluationError', 'string') };
}
