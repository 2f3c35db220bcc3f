import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditEvent, legacyLine, microTime } from './event.ts';
import { logBackend } from './log-backend.ts';

const ev = (id: string, more: Partial<AuditEvent> = {}): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: id,
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/default/pods?limit=1',
  verb: 'list',
  user: { username: 'alice', groups: ['devs', 'system:authenticated'] },
  sourceIPs: ['10.0.0.1'],
  userAgent: 'kubectl/v1.31.0',
  objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: '2026-01-02T03:04:05.678900Z',
  stageTimestamp: '2026-01-02T03:04:05.700000Z',
  ...more,
});

describe('event texts', () => {
  it('microTime: RFC 3339 in UTC with microseconds', () => {
    expect(microTime(Date.parse('2026-01-02T03:04:05.678Z') * 1000 + 901)).toBe('2026-01-02T03:04:05.678901Z');
    expect(microTime(0)).toBe('1970-01-01T00:00:00.000000Z');
  });

  it('legacyLine: upstream EventString', () => {
    expect(legacyLine(ev('a1'))).toBe(
      '2026-01-02T03:04:05.6789Z AUDIT: id="a1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="alice" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.31.0" namespace="default" uri="/api/v1/namespaces/default/pods?limit=1" response="200"',
    );
    const bare = legacyLine(
      ev('a2', { user: {}, sourceIPs: undefined, objectRef: undefined, responseStatus: undefined, impersonatedUser: { username: 'bob', groups: ['g'] }, stage: 'RequestReceived' }),
    );
    expect(bare).toContain('ip="<unknown>" method="list" user="<none>" groups="<none>" as="bob" asgroups="\\"g\\""');
    expect(bare).toContain('namespace="<none>"');
    expect(bare).toMatch(/response="<deferred>"$/);
  });
});

describe('logBackend', () => {
  it('writes JSON lines in order, after the caller returns, all there after flush', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-log-'));
    const path = join(dir, 'sub', 'audit.log');
    const b = logBackend({ path, format: 'json', mode: 'blocking', bufferSize: 10, maxBatchSize: 1, maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0 });
    for (let i = 0; i < 5; i++) void b.process(ev(`id-${i}`), JSON.stringify(ev(`id-${i}`)));
    await b.flush();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as AuditEvent).auditID)).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4']);
    await b.close();
  });

  it("legacy format; '-' writes to standard output", async () => {
    const out: string[] = [];
    const b = logBackend({ path: '-', format: 'legacy', mode: 'blocking', bufferSize: 10, maxBatchSize: 1, maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, stdout: { write: (t: string) => out.push(t) } });
    void b.process(ev('x'), JSON.stringify(ev('x')));
    await b.close();
    expect(out.join('')).toBe(`${legacyLine(ev('x'))}\n`);
  });

  it('batch mode drops events past the buffer size, saying so once', async () => {
    const warnings: string[] = [];
    const out: string[] = [];
    const b = logBackend({
      path: '-',
      format: 'json',
      mode: 'batch',
      bufferSize: 2,
      maxBatchSize: 2,
      maxSizeMB: 0,
      maxBackups: 0,
      maxAgeDays: 0,
      stdout: { write: (t: string) => out.push(t) },
      warn: (m) => warnings.push(m),
    });
    for (let i = 0; i < 4; i++) void b.process(ev(`b${i}`), `{"n":${i}}`);
    await b.flush();
    expect(out.join('')).toBe('{"n":0}\n{"n":1}\n');
    expect(warnings).toHaveLength(1);
  });

  it('rotates the file at maxsize', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-log-'));
    const path = join(dir, 'audit.log');
    const line = JSON.stringify(ev('r'));
    // room for two lines a file
    const b = logBackend({ path, format: 'json', mode: 'blocking', bufferSize: 10, maxBatchSize: 1, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, megabyte: (line.length + 1) * 2 + 1 });
    for (let i = 0; i < 3; i++) void b.process(ev('r'), line);
    await b.close();
    expect(readdirSync(dir).length).toBe(2);
  });

  it('--audit-log-compress: rotated files are gzipped JSON lines; close waits for the compression', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-log-gz-'));
    const path = join(dir, 'audit.log');
    const line = JSON.stringify(ev('z'));
    // backups a second apart (two in one millisecond would share a name)
    let clock = Date.parse('2026-01-02T00:00:00Z');
    const b = logBackend({
      path,
      format: 'json',
      mode: 'blocking',
      bufferSize: 10,
      maxBatchSize: 1,
      maxSizeMB: 1,
      maxBackups: 0,
      maxAgeDays: 0,
      compress: true,
      megabyte: (line.length + 1) * 2 + 1,
      now: () => (clock += 1000),
    });
    for (let i = 0; i < 5; i++) {
      const e = ev(`gz-${i}`);
      void b.process(e, JSON.stringify(e));
    }
    await b.close();
    const gz = readdirSync(dir).filter((n) => n.endsWith('.log.gz'));
    expect(gz.length).toBeGreaterThanOrEqual(1);
    expect(readdirSync(dir).filter((n) => n !== 'audit.log' && !n.endsWith('.gz'))).toEqual([]);
    const ids = gz
      .sort()
      .flatMap((n) =>
        gunzipSync(readFileSync(join(dir, n)))
          .toString()
          .trim()
          .split('\n'),
      )
      .map((l) => (JSON.parse(l) as AuditEvent).auditID);
    const rest = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as AuditEvent).auditID);
    expect([...ids, ...rest].sort()).toEqual(['gz-0', 'gz-1', 'gz-2', 'gz-3', 'gz-4']);
  });

  it('blocking: written before process returns; a write that fails answers false only in blocking-strict', () => {
    const out: string[] = [];
    const b = logBackend({ path: '-', format: 'json', mode: 'blocking', bufferSize: 10, maxBatchSize: 1, maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, stdout: { write: (t: string) => out.push(t) } });
    expect(b.process(ev('now'), '{"n":1}')).toBe(true);
    expect(out).toEqual(['{"n":1}\n']);
    for (const [mode, stored] of [
      ['blocking', true],
      ['blocking-strict', false],
    ] as const) {
      const warnings: string[] = [];
      const failed: string[] = [];
      const failing = logBackend({
        path: '-',
        format: 'json',
        mode,
        bufferSize: 10,
        maxBatchSize: 1,
        maxSizeMB: 0,
        maxBackups: 0,
        maxAgeDays: 0,
        warn: (m) => warnings.push(m),
        failed: (plugin, n) => failed.push(`${plugin} ${n}`),
        stdout: {
          write: () => {
            throw new Error('ENOSPC: no space left on device');
          },
        },
      });
      expect(failing.process(ev('f'), '{}')).toBe(stored);
      expect(warnings).toEqual(["Error in audit plugin 'log' affecting 1 audit events: ENOSPC: no space left on device"]);
      expect(failed).toEqual(['log 1']);
    }
  });
});
