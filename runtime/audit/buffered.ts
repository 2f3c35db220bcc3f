// The batch mode of an audit backend (--audit-<plugin>-mode=batch), as
// upstream's buffered backend: events are queued (their text made when
// taken, since a request's event changes from stage to stage) and handed
// to the writer in batches off the request's path. At most
// --audit-<plugin>-batch-buffer-size events wait; more are dropped with a
// message (once per run of drops). A batch holds at most
// --audit-<plugin>-batch-max-size events and goes when full or
// --audit-<plugin>-batch-max-wait after its first event (0: on the next turn
// of the event loop). With --audit-<plugin>-batch-throttle-enable batches
// start at most --audit-<plugin>-batch-throttle-qps a second with a burst of
// --audit-<plugin>-batch-throttle-burst. The log writes batch after batch;
// the webhook's posts run side by side (upstream's AsyncDelegate). An event
// taken is reported stored (upstream's buffered backend answers true).

import type { AuditBackend, EventText, PluginFailed } from './sink.ts';
import type { AuditEvent } from './event.ts';

export interface BatchConfig {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
  /** Start the next batch without waiting for the writer (the webhook). */
  asyncDelegate: boolean;
}

/** What a mode hands its events to: the log file or the webhook. */
export interface AuditWriter {
  /** Writes the events' texts; false (after reporting it) when they could not be written. */
  write(items: EventText[]): boolean | Promise<boolean>;
  close(): void | Promise<void>;
  /**
   * The texts of consecutive batches may be written together: true for a
   * file, where a batch is only how many lines one write call takes (the
   * lines are the same), not for the webhook, whose batches are posts.
   */
  joinsBatches?: boolean;
}

export interface BufferedDeps {
  warn: (msg: string) => void;
  /** Counts the events given up on (each dropped one too, though its message is once per run of drops). */
  failed?: PluginFailed;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export function bufferedBackend(plugin: string, writer: AuditWriter, format: (ev: AuditEvent, json: EventText) => EventText, cfg: BatchConfig, deps: BufferedDeps): AuditBackend {
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? Date.now;
  const batchMax = Math.max(1, cfg.maxBatchSize);
  let queue: EventText[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let chain: Promise<void> = Promise.resolve();
  const running = new Set<Promise<unknown>>();
  let dropping = false;
  let closed = false;
  // the throttle's token bucket
  let tokens = cfg.throttleBurst;
  let lastRefill = now();

  const throttle = async () => {
    if (!cfg.throttleEnable || cfg.throttleQPS <= 0) return;
    for (;;) {
      const t = now();
      tokens = Math.min(cfg.throttleBurst, tokens + ((t - lastRefill) / 1000) * cfg.throttleQPS);
      lastRefill = t;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(((1 - tokens) / cfg.throttleQPS) * 1000);
    }
  };

  const writeBatch = async (batch: EventText[]) => {
    await throttle();
    let done: Promise<unknown>;
    try {
      done = Promise.resolve(writer.write(batch));
    } catch (err) {
      done = Promise.reject(err as Error);
    }
    const settled = done.then(
      () => {},
      (err: unknown) => {
        deps.warn(`Error in audit plugin '${plugin}' affecting ${batch.length} audit events: ${(err as Error).message}`);
        deps.failed?.(plugin, batch.length);
      },
    );
    if (!cfg.asyncDelegate) return settled;
    running.add(settled);
    void settled.then(() => running.delete(settled));
  };

  /**
   * Hands every waiting event on, a batch at a time; to a writer that
   * joins batches, with no throttle, all of them in one write (after the
   * writes already under way).
   */
  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    if (immediate) clearImmediate(immediate);
    immediate = undefined;
    const waiting = queue;
    queue = [];
    dropping = false;
    if (waiting.length === 0) return;
    if (writer.joinsBatches && !cfg.throttleEnable) {
      chain = chain.then(() => writeBatch(waiting));
      return;
    }
    for (let i = 0; i < waiting.length; i += batchMax) {
      const batch = waiting.length <= batchMax ? waiting : waiting.slice(i, i + batchMax);
      chain = chain.then(() => writeBatch(batch));
    }
  };

  return {
    process(ev, json) {
      if (closed) return true;
      if (queue.length >= cfg.bufferSize) {
        if (!dropping) deps.warn(`Error in audit plugin '${plugin}' affecting 1 audit events: audit buffer queue blocked`);
        dropping = true;
        deps.failed?.(plugin, 1);
        return true;
      }
      queue.push(format(ev, json));
      if (queue.length >= batchMax || cfg.maxBatchWaitMs <= 0) immediate ??= setImmediate(send);
      else timer ??= setTimeout(send, cfg.maxBatchWaitMs).unref();
      return true;
    },
    async flush() {
      send();
      await chain;
      await Promise.all(running);
    },
    async close() {
      closed = true;
      send();
      await chain;
      await Promise.all(running);
      await writer.close();
    },
  };
}
