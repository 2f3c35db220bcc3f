// Which failed etcd calls may be sent again, and which member calls pass over.
import { describe, expect, it } from 'vitest';
import { DOWN_MS, MemberHealth, MemberPassedOver, retryableRead, unsent } from './endpoints.ts';

const NO_CONN = '14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:34081. Resolution note: ';

describe('unsent and retryableRead', () => {
  it.each([
    [NO_CONN, true, true],
    ['14 UNAVAILABLE: etcdserver: request timed out', false, true],
    ['14 UNAVAILABLE: etcdserver: leader changed', false, true],
    ['14 UNAVAILABLE: Connection dropped', false, true],
    ['14 UNAVAILABLE: read ECONNRESET', false, true],
    ['14 UNAVAILABLE: failed to connect to all addresses', true, true],
    ['4 DEADLINE_EXCEEDED: Deadline exceeded after 10.001s', false, true],
    ['etcdserver: mvcc: required revision has been compacted', false, false],
    ['9 FAILED_PRECONDITION: etcdserver: request is too large', false, false],
    ['3 INVALID_ARGUMENT: etcdserver: too many operations in txn request', false, false],
  ])('%s: unsent %s, read again %s', (text, isUnsent, readAgain) => {
    expect(unsent(new Error(text))).toBe(isUnsent);
    expect(retryableRead(new Error(text))).toBe(readAgain);
  });
});

describe('MemberHealth', () => {
  const hosts = ['http://a:1', 'http://b:2', 'http://c:3'];
  it('passes over a member that was not reached, until the pause ends, and never every member', () => {
    let now = 1000;
    const h = new MemberHealth(hosts, () => now);
    expect(hosts.map((x) => h.passOver(x))).toEqual([false, false, false]);
    h.noteFailure('http://a:1', new Error(NO_CONN));
    expect(hosts.map((x) => h.passOver(x))).toEqual([true, false, false]);
    // a failure after the request was sent says nothing about reaching the member
    h.noteFailure('http://b:2', new Error('14 UNAVAILABLE: etcdserver: request timed out'));
    expect(h.passOver('http://b:2')).toBe(false);
    h.noteFailure('http://b:2', new Error(NO_CONN));
    h.noteFailure('http://c:3', new Error(NO_CONN));
    // all marked: none is passed over (a call must go somewhere)
    expect(hosts.map((x) => h.passOver(x))).toEqual([false, false, false]);
    now += DOWN_MS;
    expect(hosts.map((x) => h.passOver(x))).toEqual([false, false, false]);
    h.noteFailure('http://c:3', new Error(NO_CONN));
    expect(hosts.map((x) => h.passOver(x))).toEqual([false, false, true]);
  });

  it("declines a passed-over member's call without running it, and marks a member whose call was not sent", async () => {
    const h = new MemberHealth(hosts);
    const a = h.policy('http://a:1');
    let ran = 0;
    await expect(
      a.execute(() => {
        ran++;
        throw new Error(NO_CONN);
      }),
    ).rejects.toThrow('No connection established');
    await expect(a.execute(() => ran++)).rejects.toBeInstanceOf(MemberPassedOver);
    expect(ran).toBe(1);
    expect(await h.policy('http://b:2').execute(() => 'ok')).toBe('ok');
  });
});
