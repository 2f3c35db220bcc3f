// End-to-end: a server process with --audit-policy-file and --audit-log-path,
// driven by the real kubectl; the log is read as a file: kubectl's create of a
// ConfigMap at RequestResponse (its Audit-Id seen by kubectl -v=8 is the
// event's auditID), its read of a Secret at Metadata; a bad policy stops the
// start with kube-apiserver's message; the log is complete after SIGTERM.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../runtime/audit/event.ts';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import { runCliToExit } from '../support/server-process.ts';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  resources: [{group: "", resources: [secrets]}]
- level: RequestResponse
  verbs: [create]
  resources: [{group: "", resources: [configmaps]}]
- level: None
`;

let dir: string;
let logPath: string;
let session: KubectlSession;
const k: Kubectl = (args, opts) => session.k(args, opts);
const events = (): AuditEvent[] =>
  readFileSync(logPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  logPath = join(dir, 'audit.log');
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  session = await kubectlSession(['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', logPath]);
});
afterAll(async () => {
  await session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit log with kubectl', () => {
  it('records the create at RequestResponse and the secret read at Metadata; complete once the server stopped', async () => {
    const created = await k(['create', 'configmap', 'audited', '--from-literal=k=v', '-v=8']);
    ok(created);
    const auditID = /Audit-Id: ([0-9a-f-]{36})/i.exec(created.stderr)?.[1];
    expect(auditID).toBeDefined();
    ok(await k(['create', 'secret', 'generic', 'hidden', '--from-literal=password=hunter2']));
    ok(await k(['get', 'secret', 'hidden', '-o', 'name']));
    ok(await k(['get', 'configmaps']));
    expect(await session.server.stop()).toBe(0);

    const all = events();
    expect(all.every((e) => e.stage !== 'RequestReceived')).toBe(true);
    const create = all.find((e) => e.auditID === auditID)!;
    expect(create).toMatchObject({
      level: 'RequestResponse',
      stage: 'ResponseComplete',
      verb: 'create',
      user: { username: 'kubernetes-admin' },
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' },
      responseStatus: { code: 201 },
      requestObject: { kind: 'ConfigMap', data: { k: 'v' } },
      responseObject: { kind: 'ConfigMap', data: { k: 'v' } },
      annotations: { 'authorization.k8s.io/decision': 'allow' },
    });
    expect(create.sourceIPs).toEqual(['127.0.0.1']);
    expect(create.userAgent).toMatch(/^kubectl\//);
    const secretEvents = all.filter((e) => e.objectRef?.resource === 'secrets');
    expect(secretEvents.map((e) => e.verb).sort()).toEqual(['create', 'get']);
    for (const e of secretEvents) {
      expect(e.level).toBe('Metadata');
      expect(e).not.toHaveProperty('requestObject');
      expect(e).not.toHaveProperty('responseObject');
    }
    expect(readFileSync(logPath, 'utf8')).not.toContain('hunter2');
    // the list of configmaps is at None
    expect(all.filter((e) => e.objectRef?.resource === 'configmaps' && e.verb === 'list')).toEqual([]);
  });

  it('a bad policy stops the start with the message', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n');
    const run = await runCliToExit(['--data-dir', ':memory:', '--secure-port', '0', '--audit-policy-file', bad, '--audit-log-path', logPath]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Error: loading audit policy file: loaded illegal policy with 0 rules: from file ${bad}`);
  });
});
