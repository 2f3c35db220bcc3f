// The commit-failure mapping (which SQLite errors mean the store cannot
// commit, and the text clients get) and the readiness state: set by commit
// outcomes, re-probed while failing at most once per interval.
import { describe, expect, it } from 'vitest';
import { CommitFailedError, commitFailure } from '../errors.ts';
import { CommitHealth } from './commit-health.ts';

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('commitFailure', () => {
  it.each([
    ['SQLITE_FULL', 'database or disk is full', 'database space exceeded: database or disk is full'],
    ['SQLITE_IOERR_WRITE', 'disk I/O error', 'storage commit failed: disk I/O error'],
    ['SQLITE_READONLY', 'attempt to write a readonly database', 'storage commit failed: attempt to write a readonly database'],
    ['SQLITE_BUSY', 'database is locked', 'storage commit failed: database is locked'],
  ])('%s is a commit failure', (code, message, text) => {
    const f = commitFailure(sqliteError(code, message));
    expect(f).toBeInstanceOf(CommitFailedError);
    expect(f!.message).toBe(text);
    expect(f!.backendCode).toBe(code);
    expect(f!.code).toBe(500);
  });

  it.each([
    ['SQLITE_CONSTRAINT_NOTNULL', 'NOT NULL constraint failed: log.value'],
    ['SQLITE_TOOBIG', 'string or blob too big'],
    ['SQLITE_FULLX', 'not a real code'],
  ])('%s is not', (code, message) => {
    expect(commitFailure(sqliteError(code, message))).toBeNull();
  });

  it('an error without a code is not', () => {
    expect(commitFailure(new TypeError('bug'))).toBeNull();
    expect(commitFailure(undefined)).toBeNull();
  });
});

describe('CommitHealth', () => {
  const full = () => commitFailure(sqliteError('SQLITE_FULL', 'database or disk is full'))!;

  it('follows commit outcomes and probes only when the interval has passed', () => {
    let now = 1000;
    let probeFails = true;
    let probes = 0;
    const logs: string[] = [];
    const h = new CommitHealth(
      () => {
        probes++;
        if (probeFails) throw sqliteError('SQLITE_FULL', 'database or disk is full');
      },
      500,
      (m) => logs.push(m),
      () => now,
    );

    expect(h.check()).toBeNull();
    expect(probes).toBe(0); // healthy: no probe
    h.failed(full());
    expect(h.check()?.message).toBe('database space exceeded: database or disk is full');
    expect(probes).toBe(0); // a failure just seen is not re-probed at once
    now += 499;
    h.check();
    expect(probes).toBe(0);
    now += 1;
    expect(h.check()).toBeInstanceOf(CommitFailedError);
    expect(probes).toBe(1);
    h.check();
    expect(probes).toBe(1); // once per interval
    probeFails = false;
    now += 500;
    expect(h.check()).toBeNull();
    expect(probes).toBe(2);
    expect(logs).toEqual(['storage: commits are failing: database space exceeded: database or disk is full', 'storage: commits succeed again']);
  });

  it('a successful commit clears the failure at once', () => {
    const h = new CommitHealth(() => {
      throw new Error('unused');
    }, 60_000);
    h.failed(full());
    h.failed(full());
    expect(h.check()).not.toBeNull();
    h.succeeded();
    expect(h.check()).toBeNull();
  });

  it('a probe failing for another reason keeps the last failure', () => {
    let now = 0;
    const h = new CommitHealth(
      () => {
        throw new TypeError('bug');
      },
      10,
      undefined,
      () => now,
    );
    h.failed(full());
    now = 100;
    expect(h.check()?.message).toBe('database space exceeded: database or disk is full');
  });
});
