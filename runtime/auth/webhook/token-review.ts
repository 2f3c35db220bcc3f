// The TokenReview exchanged with a webhook token authenticator
// (authentication.k8s.io v1 or v1beta1, the same shape): the request the
// server sends, and a strict reading of the answer's status. An answer that
// is not a TokenReview status of the right shape is unreadable
// (TokenReviewFormatError), never half-used.

import type { UserInfo } from '../user.ts';

export const WEBHOOK_VERSIONS = ['v1', 'v1beta1'] as const;
export type WebhookVersion = (typeof WEBHOOK_VERSIONS)[number];

/** `--authentication-token-webhook-version`, checked with upstream's text. */
export function parseWebhookVersion(v: string): WebhookVersion {
  if ((WEBHOOK_VERSIONS as readonly string[]).includes(v)) return v as WebhookVersion;
  throw new Error(`unsupported authentication webhook version "${v}", supported versions are "v1", "v1beta1"`);
}

export function tokenReviewRequest(version: WebhookVersion, token: string, audiences: string[]): Record<string, unknown> {
  const spec: Record<string, unknown> = { token };
  if (audiences.length) spec.audiences = audiences;
  return {
    apiVersion: `authentication.k8s.io/${version}`,
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec,
    status: { user: {} },
  };
}

export interface TokenReviewStatus {
  authenticated: boolean;
  user?: UserInfo;
  audiences: string[];
  error: string;
}

export class TokenReviewFormatError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new TokenReviewFormatError(`${field} must be a list of strings`);
  return v as string[];
}

function optString(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new TokenReviewFormatError(`${field} must be a string`);
  return v;
}

/** Reads the answer body (already JSON-parsed). */
export function readTokenReviewStatus(body: unknown): TokenReviewStatus {
  if (!isObject(body)) throw new TokenReviewFormatError('the answer is not an object');
  if (body.kind !== undefined && body.kind !== 'TokenReview') throw new TokenReviewFormatError('the answer is not a TokenReview');
  const status = body.status ?? {};
  if (!isObject(status)) throw new TokenReviewFormatError('status must be an object');
  const authenticated = status.authenticated ?? false;
  if (typeof authenticated !== 'boolean') throw new TokenReviewFormatError('status.authenticated must be a boolean');
  const out: TokenReviewStatus = {
    authenticated,
    audiences: strings(status.audiences, 'status.audiences'),
    error: optString(status.error, 'status.error'),
  };
  const rawUser = status.user ?? {};
  if (!isObject(rawUser)) throw new TokenReviewFormatError('status.user must be an object');
  const user: UserInfo = {
    name: optString(rawUser.username, 'status.user.username'),
    groups: strings(rawUser.groups, 'status.user.groups'),
  };
  const uid = optString(rawUser.uid, 'status.user.uid');
  if (uid) user.uid = uid;
  if (rawUser.extra !== undefined && rawUser.extra !== null) {
    if (!isObject(rawUser.extra)) throw new TokenReviewFormatError('status.user.extra must be an object');
    const extra: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(rawUser.extra)) extra[k] = strings(v, `status.user.extra[${k}]`);
    user.extra = extra;
  }
  out.user = user;
  return out;
}
