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

export function converterForCrd(crd: Obj, opts: CrdConverterOptions = {}): VersionConverter {
  const conv = crd.spec?.conversion;
  if (conv?.strategy !== 'Webhook') return noneConverter;
  const webhook = conv.webhook ?? {};
  const client = webhookPost(webhook.clientConfig, { timeoutMs: opts.timeoutMs ?? CONVERSION_WEBHOOK_TIMEOUT_MS, resolveService: opts.resolveService });
  const reviewVersions: string[] = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  return remembering(webhookConverter({ reviewVersions, post: client.post, close: client.close }));
}
