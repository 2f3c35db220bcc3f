// `Webhook` conversion: the objects not yet in the desired version are sent
// in one ConversionReview to the CRD's conversion webhook (the POST itself
// is a function given in, see client.ts), and the answer is checked as
// kube-apiserver checks it (review.ts). Every failure is a 500 without a
// reason (upstream's converter returns a plain error) whose message is
// upstream's "conversion webhook for <group/version, Kind=kind> ..." text; a
// failed POST says why as Go's client does (transport-text.ts).

import { randomUUID } from 'node:crypto';
import { errors } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { VersionConverter } from './converter.ts';
import { postFailureText } from './transport-text.ts';
import { checkConverted, convertedObjectsOf, gvkText, restoreMetadata, reviewRequest, reviewVersionOf } from './review.ts';

/** How long a conversion webhook may take to answer (upstream's webhook client default). */
export const CONVERSION_WEBHOOK_TIMEOUT_MS = 30_000;

export interface WebhookAnswer {
  status: number;
  body: Buffer;
}

export interface WebhookConverterConfig {
  /** The CRD's spec.conversion.webhook.conversionReviewVersions. */
  reviewVersions: readonly string[];
  /** POSTs the review's JSON to the webhook; rejects with an Error saying why the call failed. */
  post: (body: string) => Promise<WebhookAnswer>;
  /** The URL as upstream's client names it in errors (`Post "<url>": ...`); absent: the reason alone. */
  url?: string;
  /** The request uid (a random UUID unless given, for tests). */
  uid?: () => string;
  close?: () => void;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function webhookConverter(cfg: WebhookConverterConfig): VersionConverter {
  const uidOf = cfg.uid ?? randomUUID;
  return {
    nop: false,
    close: cfg.close,
    async convert(objs, apiVersion) {
      const toConvert = objs.filter((o) => o.apiVersion !== apiVersion);
      if (toConvert.length === 0) return objs;
      const list = objs.length > 1;
      const gvk = gvkText(toConvert[0].apiVersion, toConvert[0].kind);
      // a plain error upstream (the storage codec's): 500 without a reason, the text as it is
      const fail = (text: string) => errors.storageFailure(`conversion webhook for ${gvk} ${text}`);
      let version;
      try {
        version = reviewVersionOf(cfg.reviewVersions);
      } catch (err) {
        throw errors.internal(err);
      }
      const uid = uidOf();
      let answer: unknown;
      let res: WebhookAnswer;
      try {
        res = await cfg.post(JSON.stringify(reviewRequest(version, uid, apiVersion, toConvert)));
      } catch (err) {
        throw fail(`failed: ${cfg.url !== undefined ? postFailureText(cfg.url, err) : (err as Error).message}`);
      }
      try {
        if (res.status < 200 || res.status > 299) throw new Error(`the server responded with the status code ${res.status} but did not return more information`);
        answer = JSON.parse(res.body.toString('utf8'));
      } catch (err) {
        throw fail(`failed: ${(err as Error).message}`);
      }
      let converted: unknown[];
      try {
        converted = convertedObjectsOf(version, uid, answer);
      } catch (err) {
        throw fail(`failed: ${(err as Error).message}`);
      }
      if (converted.length !== toConvert.length) throw fail(`returned ${converted.length} objects, expected ${toConvert.length}`);
      const out: Obj[] = [];
      let next = 0;
      for (const original of objs) {
        if (original.apiVersion === apiVersion) {
          out.push(original);
          continue;
        }
        const index = next++;
        const got = converted[index];
        // upstream counts the index of a list's object from one in these texts, from zero for a single object
        const at = list ? `invalid converted object at index ${index + 1}` : 'invalid object at index 0';
        if (!isObj(got)) throw fail(`returned invalid converted object at index ${index}: not a JSON object`);
        if (got.apiVersion !== apiVersion) throw fail(`returned ${at}: invalid groupVersion (expected ${apiVersion}, received ${typeof got.apiVersion === 'string' ? got.apiVersion : ''})`);
        if (got.kind !== original.kind) throw fail(`returned ${at}: invalid kind (expected ${String(original.kind)}, received ${typeof got.kind === 'string' ? got.kind : ''})`);
        try {
          checkConverted(original, got);
        } catch (err) {
          throw fail(`returned ${list ? `invalid converted object at index ${index + 1}` : 'invalid object'}: ${(err as Error).message}`);
        }
        try {
          out.push(restoreMetadata(original, got));
        } catch (err) {
          throw fail(`returned invalid metadata${list ? ` in object at index ${index + 1}` : ''}: ${(err as Error).message}`);
        }
      }
      return out;
    },
  };
}
