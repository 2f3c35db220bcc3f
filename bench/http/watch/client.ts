// The bench's side of the watch client (client.mjs in a child process
// started as the servers are): open and close many watches, wait for an
// event to have reached all of them, or for all of them to have counted a
// number of events.

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { root } from '../../support/servers.ts';

export interface Arrival {
  name: string;
  /** process.hrtime in ms at the first and at the last stream. */
  first: number;
  last: number;
}

type Message = { opened: number } | { closed: true } | { counts: [number, number]; ended: number } | { error: string } | Arrival;

/** The monotonic clock the client stamps arrivals with, in ms. */
export const hrNow = (): number => Number(process.hrtime.bigint()) / 1e6;

export class WatchClient {
  private readonly proc: ChildProcess;
  private waiters: ((m: Message) => boolean)[] = [];
  private arrived = new Map<string, Arrival>();
  private failure: string | undefined;
  /** How many of the open (untracked) watches the server had ended, as of the last counts(). */
  endedByServer = 0;

  constructor() {
    this.proc = spawn(process.execPath, [join(root, 'bench', 'http', 'watch', 'client.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.proc.on('message', (m: Message) => {
      if ('error' in m) this.failure ??= m.error;
      if ('name' in m) this.arrived.set(m.name, m);
      this.waiters = this.waiters.filter((w) => !w(m));
    });
  }

  private until<T>(pick: (m: Message) => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      this.waiters.push((m) => {
        if ('error' in m) {
          reject(new Error(m.error));
          return true;
        }
        const v = pick(m);
        if (v === undefined) return false;
        resolve(v);
        return true;
      });
    });
  }

  /** Opens count watches of url; resolves once every one has its response headers. */
  async open(url: string, count: number, track: boolean): Promise<void> {
    if (this.failure) throw new Error(this.failure);
    const done = this.until((m) => ('opened' in m ? true : undefined));
    this.proc.send({ cmd: 'open', url, count, track });
    await done;
  }

  /** The fewest and the most events one of the open (untracked) watches has counted. */
  async counts(): Promise<[number, number]> {
    const done = this.until((m) => {
      if (!('counts' in m)) return undefined;
      this.endedByServer = m.ended;
      return m.counts;
    });
    this.proc.send({ cmd: 'count' });
    return done;
  }

  /**
   * Waits until every open (untracked) watch has counted at least `events`
   * events, or until `patienceMs` passed without any watch counting more;
   * resolves with the fewest a watch counted.
   */
  async drained(events: number, patienceMs = 5000): Promise<number> {
    let [min, max] = await this.counts();
    let since = Date.now();
    while (min < events && Date.now() - since < patienceMs) {
      await new Promise((r) => setTimeout(r, 20));
      const [m, x] = await this.counts();
      if (m !== min || x !== max) since = Date.now();
      [min, max] = [m, x];
    }
    return min;
  }

  async close(): Promise<void> {
    const done = this.until((m) => ('closed' in m ? true : undefined));
    this.proc.send({ cmd: 'close' });
    await done;
  }

  /** Resolves when the event naming `name` has reached every open watch. */
  arrival(name: string): Promise<Arrival> {
    const a = this.arrived.get(name);
    if (a) {
      this.arrived.delete(name);
      return Promise.resolve(a);
    }
    return this.until((m) => {
      if (!('name' in m) || m.name !== name) return undefined;
      this.arrived.delete(name);
      return m;
    });
  }

  /** The client process's id (its CPU time is read from /proc). */
  get pid(): number {
    return this.proc.pid!;
  }

  stop(): void {
    this.proc.disconnect();
  }
}
