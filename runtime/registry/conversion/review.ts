// The ConversionReview exchange of a conversion webhook, as pure
// functions: which review version to send (the first of the CRD's
// conversionReviewVersions this server speaks), the request, the checks of
// the answer (kind and apiVersion, uid, result status, object count) and of
// each converted object (apiVersion, kind, name, namespace, uid), and the
// metadata rule: a webhook may change labels and annotations only, the rest
// of metadata is restored from the object sent. Errors carry
// kube-apiserver's texts after "conversion webhook for <gvk> ".

import { labelValueErrors, qualifiedNameErrors } from '../../api/validation.ts';
import type { Obj } from '../../storage/interface.ts';

export type ReviewVersion = 'v1' | 'v1beta1';

const REVIEW_GROUP = 'apiextensions.k8s.io';

/** The review version to speak: the first of the CRD's list this server supports. */
export function reviewVersionOf(conversionReviewVersions: readonly string[]): ReviewVersion {
  for (const v of conversionReviewVersions) if (v === 'v1' || v === 'v1beta1') return v;
  throw new Error('no supported conversion review versions');
}

export function reviewRequest(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: Obj[]): Obj {
  return { kind: 'ConversionReview', apiVersion: `${REVIEW_GROUP}/${version}`, request: { uid, desiredAPIVersion, objects } };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `group/version, Kind=kind`, as Go prints a GroupVersionKind. */
export function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** The converted objects of a webhook's answer, or an Error with upstream's text (after "failed: "). */
export function convertedObjectsOf(version: ReviewVersion, uid: string, answer: unknown): unknown[] {
  const review = isObj(answer) ? answer : {};
  if (version === 'v1') {
    const want = gvkText(`${REVIEW_GROUP}/v1`, 'ConversionReview');
    const got = gvkText(review.apiVersion, review.kind);
    if (got !== want) throw new Error(`expected webhook response of ${want}, got ${got}`);
  }
  const response = review.response;
  if (!isObj(response)) throw new Error('no response provided');
  // v1beta1 answers were never checked for their uid upstream
  if (version === 'v1' && response.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
  const result = isObj(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    if (typeof result.message === 'string' && result.message !== '') throw new Error(result.message);
    throw new Error(`response.result.status was '${typeof result.status === 'string' ? result.status : ''}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** The identity a converted object must keep: an Error saying what differs (upstream's validateConvertedObject). */
export function checkConverted(original: Obj, converted: Obj): void {
  const md = (o: Obj) => (isObj(o.metadata) ? o.metadata : {});
  const pairs: [string, unknown, unknown][] = [
    ['kind', original.kind, converted.kind],
    ['name', md(original).name, md(converted).name],
    ['namespace', md(original).namespace, md(converted).namespace],
    ['UID', md(original).uid, md(converted).uid],
  ];
  for (const [what, a, b] of pairs) {
    if ((a ?? '') !== (b ?? '')) throw new Error(`must have the same ${what}: ${String(a ?? '')} != ${String(b ?? '')}`);
  }
}

function mapErrors(field: 'labels' | 'annotations', m: Record<string, string>): string[] {
  const errs: string[] = [];
  for (const [k, v] of Object.entries(m)) {
    for (const e of qualifiedNameErrors(k)) errs.push(`metadata.${field === 'labels' ? 'labels' : 'annotation'}: Invalid value: ${JSON.stringify(k)}: ${e}`);
    if (field === 'labels') for (const e of labelValueErrors(v)) errs.push(`metadata.labels: Invalid value: ${JSON.stringify(v)}: ${e}`);
  }
  return errs;
}

/**
 * The converted object with the metadata of the original, except labels and
 * annotations, which are the webhook's (checked as label and annotation
 * maps when they changed). Throws an Error with upstream's text.
 */
export function restoreMetadata(original: Obj, converted: Obj): Obj {
  if (!('metadata' in converted)) throw new Error('missing metadata in converted object');
  const answered = converted.metadata;
  if (!isObj(answered)) throw new Error(`invalid metadata of type ${Array.isArray(answered) ? '[]interface {}' : typeof answered} in converted object`);
  const metadata: Record<string, unknown> = isObj(original.metadata) ? structuredClone(original.metadata) : {};
  for (const field of ['labels', 'annotations'] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (!isObj(value)) throw new Error(`invalid metadata.${field} of type ${typeof value} in converted object`);
    const before = isObj(metadata[field]) ? (metadata[field] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw new Error(`metadata.${field}[${k}] must be a string, but is ${typeof v} in converted object`);
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const errs = mapErrors(field, value as Record<string, string>);
      if (errs.length) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    }
    metadata[field] = value;
  }
  return { ...converted, metadata };
}
