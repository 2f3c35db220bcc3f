// The converter of a CustomResourceDefinition, from its spec.conversion:
// `None` (or no conversion) rewrites apiVersion; `Webhook` calls the
// webhook of spec.conversion.webhook (clientConfig, conversionReviewVersions).
// A webhook's is wrapped to remember conversions of shared objects.

import type { Obj } from '../../storage/interface.ts';
import { webhookPost, type ServiceResolver } from '../../webhook-client/client-config.ts';
import { noneConverter, remembering, type VersionConverter } from './converter.ts';
import { CONVERSION_WEBHOOK_TIMEOUT_MS, webhookConverter } from './webhook.ts';

export interface CrdConverterOptions {
  /** Default CONVERSION_WEBHOOK_TIMEOUT_MS. */
  timeoutMs?: number;
  resolveService?: ServiceResolver;
}

/** Go's time.Duration text of whole seconds or milliseconds (`30s`, `1.5s`, `250ms`). */
function goDuration(ms: number): string {
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}

export function converterForCrd(crd: Obj, opts: CrdConverterOptions = {}): VersionConverter {
  const conv = crd.spec?.conversion;
  if (conv?.strategy !== 'Webhook') return noneConverter;
  const webhook = conv.webhook ?? {};
  // upstream's client sends its limit as the `timeout` query parameter (`?timeout=30s`)
  const timeoutMs = opts.timeoutMs ?? CONVERSION_WEBHOOK_TIMEOUT_MS;
  const client = webhookPost(webhook.clientConfig, { timeoutMs, resolveService: opts.resolveService, query: `timeout=${goDuration(timeoutMs)}` });
  const reviewVersions: string[] = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  return remembering(webhookConverter({ reviewVersions, post: client.post, close: client.close, url: client.url }));
}
