// Which etcd member a call goes to, when --etcd-servers names several. The
// etcd3 client picks a member at random for every call (and for every watch
// stream) and asks that member's policy to run it; a policy that declines
// without running the call makes the client try the next member. This
// module's policy declines a member that a call could not reach (no
// connection: the request was never sent) for a short while, as long as
// another member is not marked so; after that while a call goes through it
// again (and marks it again if it is still unreachable). So while a member is
// dead, calls and watch streams go to the living ones, and a member that
// comes back is used again.
//
// unsent() tells an error that proves the request never left this process (no
// connection to the member): such a call may be sent again to another member,
// a write too. An error after the request was sent (a deadline, a dropped
// connection, the member's own "request timed out" or "leader changed") may
// have been applied: only a read is sent again after it (retryableRead()).

/** How long a member that could not be reached is passed over (then tried again). */
export const DOWN_MS = 1000;

/** etcd3's text of a call that found no connection to the member (grpc-js: "No connection established"). */
const UNSENT = /No connection established|ECONNREFUSED|Connection refused|failed to connect to all addresses/i;

/** Whether a failed call provably never reached etcd, so that sending it again cannot apply it twice. */
export function unsent(err: unknown): boolean {
  const text = err instanceof Error ? err.message : String(err);
  return /^14 UNAVAILABLE/.test(text) && UNSENT.test(text);
}

/** Whether a failed read may be sent again: any unavailability (reads change nothing). */
export function retryableRead(err: unknown): boolean {
  const text = err instanceof Error ? err.message : String(err);
  return /^14 UNAVAILABLE|^4 DEADLINE_EXCEEDED/.test(text) || /etcdserver: (leader changed|no leader|request timed out)/.test(text);
}

/** The shape of the etcd3 client's per-host policy that this module provides. */
export interface HostPolicy {
  execute<T>(fn: (ctx: { signal: AbortSignal }) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T>;
}

/** The error a declined member gives (the client then tries the next member). */
export class MemberPassedOver extends Error {
  constructor(readonly host: string) {
    super(`etcd member ${host} was unreachable moments ago: passed over`);
  }
}

/** The members of one client and when each was last found unreachable. */
export class MemberHealth {
  private downUntil = new Map<string, number>();

  constructor(
    hosts: string[],
    private now: () => number = Date.now,
  ) {
    for (const h of hosts) this.downUntil.set(h, 0);
  }

  /** Whether calls should pass host over now: it is marked and some other member is not. */
  passOver(host: string): boolean {
    const t = this.now();
    if ((this.downUntil.get(host) ?? 0) <= t) return false;
    for (const [h, until] of this.downUntil) if (h !== host && until <= t) return true;
    return false;
  }

  /**
   * Notes a call through host that failed. (A success clears nothing: a watch
   * stream is "made" at once even on a dead member and fails later.)
   */
  noteFailure(host: string, err: unknown): void {
    if (unsent(err)) this.downUntil.set(host, this.now() + DOWN_MS);
  }

  /** The etcd3 host policy of one member (faultHandling.host). */
  policy(host: string): HostPolicy {
    const signal = new AbortController().signal;
    return {
      execute: async (fn, callerSignal) => {
        if (this.passOver(host)) throw new MemberPassedOver(host);
        try {
          return await fn({ signal: callerSignal ?? signal });
        } catch (err) {
          this.noteFailure(host, err);
          throw err;
        }
      },
    };
  }
}
