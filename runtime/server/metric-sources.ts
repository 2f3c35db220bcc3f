// What the scraped gauges of /metrics read from the running server: the
// number of stored objects of each served resource (apiserver_storage_objects,
// labelled `pods`, `deployments.apps`; -1 when counting failed, as upstream),
// counted every --etcd-count-metric-poll-period (the gauge shows the last
// count, as kube-apiserver's; 0 disables the counting) and by the first
// scrape that comes before the first period ended, and the size of the
// database file.

import { statSync } from 'node:fs';
import { keyRoot } from '../api/keys.ts';
import type { ApiIndex } from '../registry/served.ts';

interface Counter {
  count(prefix: string): Promise<number>;
}

/** Counts the objects of every served resource (each group and resource once, whatever its versions). */
export function objectCounter(api: ApiIndex, store: Counter): () => Promise<Map<string, number>> {
  return async () => {
    const prefixes = new Map<string, string>();
    for (const s of api.served) {
      if (s.def.virtual) continue;
      prefixes.set(s.def.group ? `${s.def.resource}.${s.def.group}` : s.def.resource, keyRoot(s.def.group, s.def.resource));
    }
    const counts = new Map<string, number>();
    await Promise.all(
      [...prefixes].map(async ([resource, prefix]) => {
        counts.set(resource, await store.count(prefix).catch(() => -1));
      }),
    );
    return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
  };
}

/** The database file's size (undefined in memory, or when it cannot be read). */
export function storageFileSize(file: string | undefined): () => { endpoint: string; bytes: number } | undefined {
  return () => {
    if (!file) return undefined;
    try {
      return { endpoint: file, bytes: statSync(file).size };
    } catch {
      return undefined;
    }
  };
}

/**
 * Counts the objects every period; a scrape reads the last counts, and the
 * first scrape before any count counts then (and waits for it). A gauge is
 * only seen through a scrape, so nothing is counted at start: a count reads
 * every served resource's range, work a restart's first /readyz would
 * otherwise wait behind.
 */
export class ObjectCountPoller {
  private last = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  /** The first count, once begun. */
  private first?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly count: () => Promise<Map<string, number>>,
    private readonly periodMs: number,
  ) {}

  /** The counts of the last poll; the first call before any poll counts now. */
  readonly latest = async (): Promise<Map<string, number>> => {
    this.first ??= this.poll();
    await this.first;
    return this.last;
  };

  /** Counts every period from now on (period 0: never). */
  start(): void {
    if (this.periodMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      const polled = this.poll();
      this.first ??= polled;
    }, this.periodMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    try {
      this.last = await this.count();
    } catch {
      /* objectCounter reports a failed resource as -1 itself */
    }
  }
}
