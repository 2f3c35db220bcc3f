// What the scraped gauges of /metrics read from the running server: the
// number of stored objects of each served resource (apiserver_storage_objects,
// labelled `pods`, `deployments.apps`; -1 when counting failed, as upstream),
// counted every --etcd-count-metric-poll-period (the gauge shows the last
// count, as kube-apiserver's; 0 disables the counting), and the size of the
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

/** Counts the objects every period, the first time when started; a scrape reads the last counts. */
export class ObjectCountPoller {
  private last = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly count: () => Promise<Map<string, number>>,
    private readonly periodMs: number,
  ) {}

  /** The counts of the last poll (none before the first). */
  readonly latest = async (): Promise<Map<string, number>> => this.last;

  /** Counts now and then every period (period 0: never); resolves after the first count. */
  async start(): Promise<void> {
    if (this.periodMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.periodMs);
    this.timer.unref();
    await this.poll();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    try {
      this.last = await this.count();
    } catch {
      /* objectCounter reports a failed resource as -1 itself */
    }
  }
}
