// The truncating backend of --audit-log-truncate-enabled and
// --audit-webhook-truncate-enabled, around the mode's backend as upstream
// wraps it: an event whose JSON is larger than
// --audit-<plugin>-truncate-max-event-size bytes (102400) loses its request
// and response objects, at level Request and above, and is marked with the
// annotation `audit.k8s.io/truncated: "true"`; one still too large is
// dropped with a message. Events given together are passed on in batches
// of at most --audit-<plugin>-truncate-max-batch-size bytes (10 MiB); the
// request path gives one event at a time. Sizes count the encoded event
// and its line break, as upstream's encoder writes it.

import type { AuditBackend, EventText, PluginFailed, Stored } from './sink.ts';
import { bothStored } from './sink.ts';
import type { AuditEvent } from './event.ts';
import { eventJSON } from './event-json.ts';
import { levelAtLeast } from './policy.ts';

export interface TruncateConfig {
  maxEventSize: number;
  maxBatchSize: number;
}

export const TRUNCATED_ANNOTATION = 'audit.k8s.io/truncated';

export interface AuditItem {
  event: AuditEvent;
  json: EventText;
}

function sizeOf(json: EventText): number {
  if (typeof json === 'string') return Buffer.byteLength(json) + 1;
  let n = 1;
  for (const piece of json) n += Buffer.byteLength(piece);
  return n;
}

/** The event without its objects, marked truncated (a copy: the request's event goes on to later stages). */
export function truncatedEvent(ev: AuditEvent): AuditEvent {
  const out: AuditEvent = { ...ev, requestObject: undefined, responseObject: undefined, annotations: { ...ev.annotations, [TRUNCATED_ANNOTATION]: 'true' } };
  return out;
}

/** Events fitted to the limits: the batches to pass on, and how many were too large even truncated. */
export function truncateItems(items: AuditItem[], cfg: TruncateConfig): { batches: AuditItem[][]; dropped: number } {
  const batches: AuditItem[][] = [];
  let dropped = 0;
  let batch: AuditItem[] = [];
  let batchSize = 0;
  for (let item of items) {
    let size = sizeOf(item.json);
    if (size > cfg.maxEventSize && levelAtLeast(item.event.level, 'Request')) {
      const event = truncatedEvent(item.event);
      item = { event, json: eventJSON(event) };
      size = sizeOf(item.json);
    }
    if (size > cfg.maxEventSize) {
      dropped++;
      continue;
    }
    if (batch.length > 0 && batchSize + size > cfg.maxBatchSize) {
      batches.push(batch);
      batch = [];
      batchSize = 0;
    }
    batchSize += size;
    batch.push(item);
  }
  if (batch.length) batches.push(batch);
  return { batches, dropped };
}

export function truncateBackend(inner: AuditBackend, cfg: TruncateConfig, warn: (msg: string) => void, failed?: PluginFailed): AuditBackend {
  return {
    blocking: inner.blocking,
    process(ev, json): Stored {
      const { batches, dropped } = truncateItems([{ event: ev, json }], cfg);
      if (dropped) {
        warn(`Error in audit plugin 'truncate' affecting ${dropped} audit events: event is too large even after truncating`);
        failed?.('truncate', dropped);
      }
      let stored: Stored = true;
      for (const batch of batches) for (const item of batch) stored = bothStored(stored, inner.process(item.event, item.json));
      return stored;
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}
