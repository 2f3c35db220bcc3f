// The webhook backend of --audit-webhook-config-file: events are posted as
// an audit.k8s.io/v1 EventList to the server the kubeconfig names (its CA,
// client certificate or token). The mode (modes.ts, --audit-webhook-mode,
// default batch) says when: batch mode (buffered.ts) posts batches of
// --audit-webhook-batch-max-size events (400), at the latest
// --audit-webhook-batch-max-wait (30s) after their first one, at most
// --audit-webhook-batch-throttle-qps a second (10) with a burst of
// --audit-webhook-batch-throttle-burst (15) while
// --audit-webhook-batch-throttle-enable (true), at most
// --audit-webhook-batch-buffer-size (10000) waiting; the blocking modes post
// each event alone while the request waits. A post that fails with a reset
// connection, 429 or a 5xx answer is tried again after
// --audit-webhook-initial-backoff (10s), the wait growing 1.5 times each
// try, up to 5 tries (upstream's default retry backoff); a refused
// connection or another answer is not retried. A post given up on is
// reported and answers false (blocking-strict fails the request for it).
// The truncating backend (truncate.ts, --audit-webhook-truncate-*) is
// around the mode when enabled. close() sends what waits.

import { WebhookCallError, WebhookClient } from '../auth/webhook/client.ts';
import type { WebhookClientConfig } from '../auth/webhook/kubeconfig.ts';
import { type AuditBackend, joinText, type PluginFailed } from './sink.ts';
import type { AuditWriter } from './buffered.ts';
import { type BackendMode, modeBackend } from './modes.ts';
import { truncateBackend, type TruncateConfig } from './truncate.ts';

export interface WebhookBackendOptions {
  config: WebhookClientConfig;
  mode: BackendMode;
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
  initialBackoffMs: number;
  /** --audit-webhook-truncate-*: absent, nothing is truncated. */
  truncate?: TruncateConfig;
  /** Tries per batch (upstream's default backoff has 5 steps). */
  tries?: number;
  warn?: (msg: string) => void;
  /** Where failures are counted (apiserver_audit_error_total). */
  failed?: PluginFailed;
  /** Waits (tests pass a quicker one). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Posts EventLists, retried as upstream's webhook backend retries them. */
export function webhookWriter(opts: WebhookBackendOptions, warn: (msg: string) => void): AuditWriter {
  const client = new WebhookClient(opts.config);
  const sleep = opts.sleep ?? defaultSleep;
  const tries = opts.tries ?? 5;
  return {
    async write(items) {
      const body = `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${items.map(joinText).join(',')}]}`;
      let wait = opts.initialBackoffMs;
      let why = '';
      for (let i = 0; i < tries; i++) {
        if (i > 0) {
          await sleep(wait);
          wait *= 1.5;
        }
        try {
          const res = await client.post(body);
          if (res.status >= 200 && res.status < 300) return true;
          why = `the server answered ${res.status}`;
          if (res.status < 500 && res.status !== 429) break;
        } catch (err) {
          why = (err as Error).message;
          if (!(err instanceof WebhookCallError && (err.retriable || err.timedOut))) break;
        }
      }
      warn(`Error in audit plugin 'webhook' affecting ${items.length} audit events: ${why}`);
      opts.failed?.('webhook', items.length);
      return false;
    },
    close: () => client.close(),
  };
}

export function webhookBackend(opts: WebhookBackendOptions): AuditBackend {
  const warn = opts.warn ?? ((m: string) => console.error(m));
  const backend = modeBackend(
    {
      plugin: 'webhook',
      mode: opts.mode,
      writer: webhookWriter(opts, warn),
      format: (_ev, json) => json,
      batch: {
        bufferSize: opts.bufferSize,
        maxBatchSize: opts.maxBatchSize,
        maxBatchWaitMs: opts.maxBatchWaitMs,
        throttleEnable: opts.throttleEnable,
        throttleQPS: opts.throttleQPS,
        throttleBurst: opts.throttleBurst,
        asyncDelegate: true,
      },
    },
    { warn, failed: opts.failed, sleep: opts.sleep, now: opts.now },
  );
  return opts.truncate ? truncateBackend(backend, opts.truncate, warn, opts.failed) : backend;
}
