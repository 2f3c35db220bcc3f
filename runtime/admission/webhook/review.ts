// The AdmissionReview a webhook is sent and the checks of its answer, as
// kube-apiserver's webhook request package: the review's version is the
// first of the webhook's admissionReviewVersions this server speaks (v1,
// then v1beta1), the request is the AdmissionRequest of the call with the
// object and old object, and an answer must be an AdmissionReview of that
// version (v1: apiVersion, kind and the request's uid checked) with a
// response; a mutating webhook's patch comes with its patchType (v1beta1:
// a patch is JSONPatch), a validating webhook returns neither. Texts as
// upstream's.

import type { Obj } from '../../storage/interface.ts';
import type { AdmissionRequest } from '../matching/request.ts';

export type ReviewVersion = 'v1' | 'v1beta1';

/** The first version of the list this server sends; undefined when none (upstream fails the call). */
export function reviewVersionOf(versions: readonly string[]): ReviewVersion | undefined {
  for (const v of versions) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

export const NO_REVIEW_VERSION = 'webhook does not accept v1 or v1beta1 AdmissionReview';

/** The review's JSON: request, object and oldObject (null when absent, as Go's empty RawExtension encodes). */
export function reviewBody(version: ReviewVersion, request: AdmissionRequest, object: Obj | null, oldObject: Obj | null): string {
  return JSON.stringify({
    kind: 'AdmissionReview',
    apiVersion: `admission.k8s.io/${version}`,
    request: { ...request, object, oldObject },
  });
}

/** A checked answer (patch decoded from base64, patchType normalised to v1's). */
export interface WebhookResult {
  allowed: boolean;
  status?: Obj;
  patch?: Buffer;
  patchType?: string;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const gvkText = (apiVersion: unknown, kind: unknown): string => {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash >= 0 ? [av.slice(0, slash), av.slice(slash + 1)] : ['', av];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
};

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** Upstream's VerifyAdmissionResponse: throws an Error with its text when the answer is not acceptable. */
export function verifyResponse(version: ReviewVersion, uid: string, mutating: boolean, answer: unknown): WebhookResult {
  const review = isObj(answer) ? answer : {};
  const r = review.response;
  if (!isObj(r)) throw new Error('webhook response was absent');
  let patchType: string | undefined;
  const rawPatch = typeof r.patch === 'string' ? r.patch : '';
  if (version === 'v1') {
    if (r.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof r.uid === 'string' ? r.uid : '')}`);
    if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview')
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkText(review.apiVersion, review.kind)}`);
    if (mutating) {
      if (rawPatch && r.patchType == null) throw new Error('webhook returned response.patch but not response.patchType');
      if (!rawPatch && r.patchType != null) throw new Error('webhook returned response.patchType but not response.patch');
      if (r.patchType != null) {
        patchType = String(r.patchType);
        if (patchType === '') throw new Error(`webhook returned invalid response.patchType of ""`);
      }
    } else {
      if (rawPatch) throw new Error('validating webhook may not return response.patch');
      if (r.patchType != null) throw new Error('validating webhook may not return response.patchType');
    }
  } else if (mutating && rawPatch) {
    // v1beta1 never checked the patch type: a patch is a JSON patch
    patchType = 'JSONPatch';
  }
  const result: WebhookResult = {
    allowed: r.allowed === true,
    warnings: Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === 'string') : [],
    auditAnnotations: stringMap(r.auditAnnotations),
  };
  if (isObj(r.status)) result.status = r.status;
  if (mutating && rawPatch) {
    result.patch = Buffer.from(rawPatch, 'base64');
    result.patchType = patchType;
  }
  return result;
}
