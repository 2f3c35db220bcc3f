// The webhook backend of --audit-webhook-config-file: events are posted as
// an audit.k8s.io/v1 EventList to the server the kubeconfig names (its CA,
// client certificate or token), in batches as upstream's buffered backend
// makes them: a batch goes when it has --audit-webhook-batch-max-size events
// (400) or --audit-webhook-batch-max-wait (30s) after its first one; at most
// --audit-webhook-batch-buffer-size (10000) events wait, more are dropped.
// With --audit-webhook-batch-throttle-enable (on by default) batches are
// sent at most --audit-webhook-batch-throttle-qps a second (10) with a burst
// of --audit-webhook-batch-throttle-burst (15). A failed post (a connection
// error or a 5xx answer) is tried again after --audit-webhook-initial-backoff
// (10s), the wait growing 1.5 times each try, up to 5 tries (upstream's
// default retry backoff), then the batch is dropped with a message. In
// blocking modes each event is posted alone at once (still off the
// request's path). close() sends what waits.

import { WebhookClient } from '../auth/webhook/client.ts';
import type { WebhookClientConfig } from '../auth/webhook/kubeconfig.ts';
import type { AuditBackend } from './sink.ts';
import type { BackendMode } from './log-backend.ts';

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
  /** Tries per batch (upstream's default backoff has 5 steps). */
  tries?: number;
  warn?: (msg: string) => void;
  /** Waits (tests pass a quicker one). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export function webhookBackend(opts: WebhookBackendOptions): AuditBackend {
  const client = new WebhookClient(opts.config);
  const warn = opts.warn ?? ((m: string) => console.error(m));
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const tries = opts.tries ?? 5;
  const batchMax = opts.mode === 'batch' ? Math.max(1, opts.maxBatchSize) : 1;
  let queue: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();
  let closed = false;
  // token bucket of the throttle
  let tokens = opts.throttleBurst;
  let lastRefill = now();

  const throttle = async () => {
    if (opts.mode !== 'batch' || !opts.throttleEnable || opts.throttleQPS <= 0) return;
    for (;;) {
      const t = now();
      tokens = Math.min(opts.throttleBurst, tokens + ((t - lastRefill) / 1000) * opts.throttleQPS);
      lastRefill = t;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(((1 - tokens) / opts.throttleQPS) * 1000);
    }
  };

  const post = async (items: string[]) => {
    const body = `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${items.join(',')}]}`;
    let wait = opts.initialBackoffMs;
    let why = '';
    for (let i = 0; i < tries; i++) {
      if (i > 0) {
        await sleep(wait);
        wait *= 1.5;
      }
      try {
        const res = await client.post(body);
        if (res.status >= 200 && res.status < 300) return;
        why = `the server answered ${res.status}`;
        if (res.status < 500 && res.status !== 429) break;
      } catch (err) {
        why = (err as Error).message;
      }
    }
    warn(`Error in audit plugin 'webhook' affecting ${items.length} audit events: ${why}`);
  };

  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length) {
      const batch = queue.slice(0, batchMax);
      queue = queue.slice(batch.length);
      sending = sending.then(async () => {
        await throttle();
        await post(batch);
      });
    }
  };

  return {
    process(_ev, json) {
      if (closed) return;
      if (queue.length >= opts.bufferSize) {
        warn("Error in audit plugin 'webhook' affecting 1 audit events: audit buffer queue blocked");
        return;
      }
      queue.push(json);
      if (opts.mode !== 'batch' || queue.length >= batchMax) {
        // blocking modes post each event at once; a full batch goes now
        if (opts.mode !== 'batch') setImmediate(send);
        else send();
        return;
      }
      timer ??= setTimeout(send, opts.maxBatchWaitMs).unref();
    },
    async flush() {
      send();
      await sending;
    },
    async close() {
      closed = true;
      send();
      await sending;
      client.close();
    },
  };
}
