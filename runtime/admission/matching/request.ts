// The AdmissionRequest of one admission call (admission.k8s.io/v1), built in
// one place for the `request` variable of CEL expressions (matchConditions,
// policies) and for the AdmissionReview webhooks are sent: kind and resource
// are the ones a rule matched (an equivalent's under matchPolicy Equivalent),
// requestKind and requestResource what the client asked for, as upstream's
// CreateAdmissionRequest. Its CEL type is REQUEST_VAR in
// runtime/cel/admission/env.ts.

import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { operationOptions } from '../../registry/write-services.ts';
import type { GroupVersionKind, GroupVersionResource } from './rules.ts';

export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  dryRun: boolean;
  options?: Obj;
}

/** Which resource and kind the request is sent as (the match's), and the request's own. */
export interface RequestVersions {
  resource: GroupVersionResource;
  kind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestKind: GroupVersionKind;
}

/** The operation's options as upstream passes them (attrs.options when the caller set it; otherwise built from dryRun). */
function optionsOf(attrs: AdmissionAttributes): Obj | undefined {
  return attrs.options ?? operationOptions(attrs.operation, undefined, attrs.dryRun);
}

/** The request's AdmissionRequest; uid is empty for CEL (upstream leaves it unset there), the review's uid for webhooks. */
export function admissionRequest(attrs: AdmissionAttributes, v: RequestVersions, uid = ''): AdmissionRequest {
  const u = attrs.user;
  const userInfo: AdmissionRequest['userInfo'] = {};
  if (u.name) userInfo.username = u.name;
  if (u.uid) userInfo.uid = u.uid;
  if (u.groups?.length) userInfo.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) userInfo.extra = structuredClone(u.extra);
  const req: AdmissionRequest = {
    uid,
    kind: { ...v.kind },
    resource: { ...v.resource },
    requestKind: { ...v.requestKind },
    requestResource: { ...v.requestResource },
    operation: attrs.operation,
    userInfo,
    dryRun: attrs.dryRun,
  };
  if (attrs.subresource) {
    req.subResource = attrs.subresource;
    req.requestSubResource = attrs.subresource;
  }
  if (attrs.name) req.name = attrs.name;
  if (attrs.namespace) req.namespace = attrs.namespace;
  const options = optionsOf(attrs);
  if (options) req.options = options;
  return req;
}
