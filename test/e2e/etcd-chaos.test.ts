// Chaos on etcd: a three-member etcd cluster and two server processes, each
// given every member in --etcd-servers. Eight writers (HTTP clients), four on
// each replica, create ConfigMaps and update them again and again, each
// write carrying the object's next sequence number; two watchers on the
// replica that survives, started before the writes, watch them (one all of
// them, one half by a label selector). While the writers write, the etcd
// leader is killed with SIGKILL, then (once more writes were acknowledged)
// started again, and so each member in turn, so that whichever member a
// watch of the survivor is on is killed under it; with the last member still
// dead the other replica is killed; its writers carry on against the
// survivor. Nothing waits on time: each step waits for a number of
// acknowledged writes.
//
// At the end:
// - while a member is dead writes go on: the only 5xx answers are writes
//   whose outcome is unknown (etcd's own around a lost leader, a request in
//   flight to the member killed);
// - every acknowledged write is present: the object exists, with a
//   sequence number at least the acknowledged one (later writes move it on);
// - each watcher saw, for every object it watches, every applied write once,
//   in order: sequence numbers 0, 1, 2, ... up to the object's stored one,
//   with no gap and no repeat, resourceVersions rising over the whole stream,
//   and the last event's resourceVersion the stored object's.
// A writer whose write fails without an answer (its replica killed, etcd's
// ambiguous "request timed out" around the lost leader) reads the object and
// writes again only if the write was not applied, as a careful client does,
// so the sequence numbers of an object are exactly its applied writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable } from '../support/etcd.ts';
import { startEtcdCluster, stopServersAndCluster, type TestEtcdCluster } from '../support/etcd-cluster.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

const NS = 'chaos';
const WRITERS = 8;
/** Updates of one object before a writer creates its next one. */
const UPDATES = 4;

interface CM {
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string> };
  data: { seq: string; writer: string };
}

/**
 * The 5xx texts of a write whose outcome is unknown (it may have been applied): etcd's own around a lost
 * leader, and a request in flight to the member when it was killed. A call that never reached a member
 * ("No connection established") is not among them: it goes to another member.
 */
const IN_DOUBT = /etcdserver: (request timed out|leader changed|no leader)|read ECONNRESET|Connection dropped|DEADLINE_EXCEEDED/;

/** Polls until cond() holds (the bound only ends a broken run). */
async function until(cond: () => boolean, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`not reached: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const configMap = (name: string, w: number, seq: number, rv?: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: NS, labels: { chaos: '1', half: name.endsWith('0') || name.endsWith('2') ? 'even' : 'odd' }, ...(rv ? { resourceVersion: rv } : {}) },
  data: { seq: String(seq), writer: String(w) },
});

/** One watch over HTTP, read line by line; re-watched from the last resourceVersion if the server ends it (as a reflector does). */
class Watcher {
  events: { type: string; object: CM }[] = [];
  errors: string[] = [];
  restarts = 0;
  private abort = new AbortController();
  private done: Promise<void>;

  constructor(
    private base: string,
    private selector: string,
    from: string,
  ) {
    this.done = this.run(from);
  }

  lastRV(): number {
    const e = this.events[this.events.length - 1];
    return e ? Number(e.object.metadata.resourceVersion) : 0;
  }

  private async run(from: string): Promise<void> {
    let rv = from;
    while (!this.abort.signal.aborted) {
      try {
        const res = await fetch(`${this.base}/api/v1/namespaces/${NS}/configmaps?watch=1&labelSelector=${encodeURIComponent(this.selector)}&resourceVersion=${rv}`, { signal: this.abort.signal });
        if (res.status !== 200) {
          this.errors.push(`watch answered ${res.status}: ${await res.text()}`);
          return;
        }
        let buf = '';
        const dec = new TextDecoder();
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += dec.decode(chunk, { stream: true });
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const ev = JSON.parse(buf.slice(0, nl)) as { type: string; object: CM };
            buf = buf.slice(nl + 1);
            if (ev.type === 'ERROR') {
              this.errors.push(`watch ERROR event: ${JSON.stringify(ev.object)}`);
              return;
            }
            if (ev.type !== 'BOOKMARK') this.events.push(ev);
            rv = ev.object.metadata.resourceVersion;
          }
        }
        if (this.abort.signal.aborted) return;
        this.restarts++;
      } catch (err) {
        if (this.abort.signal.aborted) return;
        this.errors.push(`watch failed: ${(err as Error).message}`);
        return;
      }
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}

describe.skipIf(!etcdAvailable())('two servers on a three-member etcd cluster, a member and a server killed', () => {
  let cluster: TestEtcdCluster;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    cluster = await startEtcdCluster();
  }, 90_000);
  afterAll(() => stopServersAndCluster(servers, cluster));

  it('loses no acknowledged write and the survivor watchers see every write in order', { timeout: 600_000 }, async () => {
    const args = ['--etcd-servers', cluster.endpoints, '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow'];
    // one after the other: the second finds the first's built-in objects
    const survivor = await startServerProcess(args, { keepDataDir: true });
    servers.push(survivor);
    const victim = await startServerProcess(args, { keepDataDir: true });
    servers.push(victim);
    const post = (base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(survivor.url, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);

    // the watchers, from the revision of a list taken before any write
    const list0 = (await (await fetch(`${survivor.url}/api/v1/namespaces/${NS}/configmaps`)).json()) as { metadata: { resourceVersion: string } };
    const watchAll = new Watcher(survivor.url, 'chaos=1', list0.metadata.resourceVersion);
    const watchEven = new Watcher(survivor.url, 'chaos=1,half=even', list0.metadata.resourceVersion);

    /** name → the highest sequence number acknowledged (2xx) for it. */
    const acked = new Map<string, number>();
    let ackCount = 0;
    const unanswered: string[] = [];
    /** The 5xx answers. */
    const failed: string[] = [];
    const unexpected: string[] = [];
    let stop = false;
    /** When the writers were told to stop (an unanswered read gives up a minute after, so a broken run ends). */
    let stoppedAt = 0;
    const ack = (name: string, seq: number) => {
      acked.set(name, Math.max(acked.get(name) ?? -1, seq));
      ackCount++;
    };

    const writer = async (w: number) => {
      let base = w < WRITERS / 2 ? survivor.url : victim.url;
      /** Sends one request; a request the replica did not answer moves this writer to the survivor. */
      const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any } | undefined> => {
        try {
          // bounded so that a hung replica ends a broken run (the server's own request timeout is 1 min)
          const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(120_000) });
          const out = { status: res.status, body: await res.json() };
          if (out.status >= 500) failed.push(`${method} ${path}: ${out.status} ${out.body?.message}`);
          return out;
        } catch (err) {
          unanswered.push(`${method} ${path} via ${base}: ${(err as Error).message}`);
          if (base !== survivor.url && victim.proc.exitCode === null && victim.proc.signalCode === null) return undefined;
          base = survivor.url;
          return undefined;
        }
      };
      /** The stored object, read until the survivor answers. */
      const read = async (name: string): Promise<CM | null> => {
        for (;;) {
          const r = await send('GET', `/api/v1/namespaces/${NS}/configmaps/${name}`);
          if (r?.status === 200) return r.body as CM;
          if (r?.status === 404) return null;
          if (r && r.status < 500) throw new Error(`GET ${name}: ${r.status} ${JSON.stringify(r.body)}`);
          if (stop && Date.now() - stoppedAt > 60_000) throw new Error(`GET ${name}: no answer since the writers were stopped`);
          // etcd electing a leader, the replica going away: ask again shortly
          await new Promise((res) => setTimeout(res, 20));
        }
      };
      for (let i = 0; !stop; i++) {
        const name = `w${w}-${i}`;
        // the create, until it is known to be applied
        let cur: CM | null;
        for (;;) {
          const r = await send('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap(name, w, 0));
          if (r?.status === 201) {
            cur = r.body as CM;
            ack(name, 0);
            break;
          }
          if (r && r.status < 500 && r.status !== 409) {
            unexpected.push(`POST ${name}: ${r.status} ${JSON.stringify(r.body)}`);
            return;
          }
          // no answer, a 500 or AlreadyExists: applied or not?
          cur = await read(name);
          if (cur) break;
        }
        for (let seq = 1; seq <= UPDATES && !stop; seq++) {
          for (;;) {
            const r = await send('PUT', `/api/v1/namespaces/${NS}/configmaps/${name}`, configMap(name, w, seq, cur.metadata.resourceVersion));
            if (r?.status === 200) {
              cur = r.body as CM;
              ack(name, seq);
              break;
            }
            if (r && r.status < 500 && r.status !== 409) {
              unexpected.push(`PUT ${name}: ${r.status} ${JSON.stringify(r.body)}`);
              return;
            }
            const now = await read(name);
            if (!now) {
              unexpected.push(`PUT ${name}: the object is gone`);
              return;
            }
            cur = now;
            if (Number(now.data.seq) === seq) break; // the unanswered write was applied
            if (Number(now.data.seq) !== seq - 1) {
              unexpected.push(`PUT ${name}: stored seq ${now.data.seq}, expected ${seq - 1} or ${seq}`);
              return;
            }
          }
        }
      }
    };

    const running = Array.from({ length: WRITERS }, (_, w) => writer(w));
    const progress = (n: number, what: string) => until(() => ackCount >= n || unexpected.length > 0, what, 300_000);
    try {
      await progress(300, '300 acknowledged writes');
      // every member is killed once (the leader first), so the member that any watch of the survivor
      // is on is among them; the last stays dead while the replica is killed
      const leader = await cluster.leader();
      expect(leader).toBeGreaterThanOrEqual(0);
      const order = [leader, ...cluster.members.map((_, i) => i).filter((i) => i !== leader)];
      for (const [k, i] of order.entries()) {
        await cluster.kill(i);
        await progress(ackCount + 300, `300 more writes with etcd member ${cluster.members[i].name} dead`);
        // the etcd check of /readyz passes over the dead member
        const ready = await fetch(`${survivor.url}/readyz?verbose`);
        expect(ready.status, await ready.text()).toBe(200);
        if (k < order.length - 1) await cluster.restart(i);
      }
      await victim.kill();
      const afterReplica = ackCount;
      await progress(afterReplica + 400, '400 more writes with one replica dead');
    } finally {
      stop = true;
      stoppedAt = Date.now();
      await Promise.all(running);
    }
    expect(unexpected).toEqual([]);
    // a dead member is passed over: the only failures are writes whose outcome is unknown
    expect(failed.filter((f) => !IN_DOUBT.test(f))).toEqual([]);

    // a last write: the watchers must reach it
    const last = await post(survivor.url, `/api/v1/namespaces/${NS}/configmaps`, configMap('last-0', 99, 0));
    expect(last.status).toBe(201);
    const lastRV = Number(((await last.json()) as CM).metadata.resourceVersion);
    await until(() => watchAll.lastRV() >= lastRV || watchAll.errors.length > 0, 'the watcher sees the last write');
    await until(() => watchEven.lastRV() >= lastRV || watchEven.errors.length > 0, 'the even watcher sees the last write');
    await watchAll.stop();
    await watchEven.stop();
    expect(watchAll.errors).toEqual([]);
    expect(watchEven.errors).toEqual([]);

    // every acknowledged write is present (a consistent list, from etcd)
    const listed = (await (await fetch(`${survivor.url}/api/v1/namespaces/${NS}/configmaps?labelSelector=chaos%3D1`)).json()) as { items: CM[] };
    const stored = new Map(listed.items.map((o) => [o.metadata.name, o]));
    const lost = [...acked].filter(([name, seq]) => !stored.has(name) || Number(stored.get(name)!.data.seq) < seq);
    expect(lost).toEqual([]);
    expect(acked.size).toBeGreaterThan(100);

    // each watcher: every applied write of every watched object, once and in order
    for (const [watcher, selected] of [
      [watchAll, () => true],
      [watchEven, (o: CM) => o.metadata.labels?.half === 'even'],
    ] as const) {
      const rvs = watcher.events.map((e) => Number(e.object.metadata.resourceVersion));
      const descending = rvs.findIndex((rv, i) => i > 0 && rv <= rvs[i - 1]);
      expect(descending, `resourceVersions rise (event ${descending})`).toBe(-1);
      const seqs = new Map<string, number[]>();
      const lastEvent = new Map<string, CM>();
      for (const e of watcher.events) {
        expect(e.type).toBe(seqs.has(e.object.metadata.name) ? 'MODIFIED' : 'ADDED');
        seqs.set(e.object.metadata.name, [...(seqs.get(e.object.metadata.name) ?? []), Number(e.object.data.seq)]);
        lastEvent.set(e.object.metadata.name, e.object);
      }
      for (const o of stored.values()) {
        if (!selected(o)) {
          expect(seqs.has(o.metadata.name), `${o.metadata.name} is not watched`).toBe(false);
          continue;
        }
        const want = Array.from({ length: Number(o.data.seq) + 1 }, (_, i) => i);
        expect(seqs.get(o.metadata.name), o.metadata.name).toEqual(want);
        expect(lastEvent.get(o.metadata.name)?.metadata.resourceVersion, o.metadata.name).toBe(o.metadata.resourceVersion);
      }
      expect(seqs.size).toBe([...stored.values()].filter(selected).length);
    }
    // what happened, for the log of a run
    console.log(
      `chaos: ${ackCount} acknowledged writes on ${acked.size} objects; ${unanswered.length} requests without an answer, ${failed.length} answered 5xx; watch events ${watchAll.events.length} (restarts ${watchAll.restarts}) and ${watchEven.events.length} (restarts ${watchEven.restarts})`,
    );
  });
});
