// One request's record: made when the request arrives (runtime/http/app.ts)
// and read when it ends by whatever reports on requests (the audit log,
// metrics, the request log). Stages add to it as they learn things: its
// audit annotations (authorization's decision, admission plugins and
// webhooks, a deprecated version's use) and whether the request used a
// deprecated API. It sits in the bottom layer so that any stage, down to
// the registry's admission, can write to it without importing HTTP.

import { randomUUID } from 'node:crypto';

export interface DeprecatedUse {
  /** The release the version is removed in (`1.32`), when known. */
  removedRelease?: string;
}

/** What an audited request is told of its body once decoded (runtime/audit/auditor.ts RequestAudit). */
export interface RequestObjectAudit {
  /** objectRef's name, namespace, uid and resourceVersion from the object's metadata; the object itself at Request level and above. */
  requestObject(facts: { name?: string; namespace?: string; uid?: string; resourceVersion?: string }, object?: unknown): void;
}

export interface RequestRecord {
  /** The request's audit ID: the client's `Audit-ID` header when it sent one, else a new UUID (the `Audit-Id` response header). */
  readonly auditID: string;
  /** When the request was received (ms since the epoch). */
  readonly receivedAt: number;
  /** Audit annotations (audit.k8s.io Event `annotations`); the first value a key gets is kept. */
  readonly annotations: Record<string, string>;
  /** Set when the request addressed a deprecated API version. */
  deprecated?: DeprecatedUse;
  /** Set when the audit policy records the request: told of the request's decoded body. */
  audit?: RequestObjectAudit;
}

export function newRequestRecord(clientAuditID: string | undefined, now: number = Date.now()): RequestRecord {
  return { auditID: clientAuditID || randomUUID(), receivedAt: now, annotations: {} };
}

/** Adds an audit annotation unless the key has one already (upstream keeps the first value and logs the clash). */
export function addAuditAnnotation(record: RequestRecord, key: string, value: string): boolean {
  if (Object.prototype.hasOwnProperty.call(record.annotations, key)) return false;
  record.annotations[key] = value;
  return true;
}
