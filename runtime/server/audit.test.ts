import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditFlags, DEFAULT_LOG_MODE, buildAuditor } from './audit.ts';
import { FLAGS } from '../config/flags.ts';

const dir = mkdtempSync(join(tmpdir(), 'audit-flags-'));
const policy = join(dir, 'policy.yaml');
writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata}]\n');
const badPolicy = join(dir, 'bad.yaml');
writeFileSync(badPolicy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Loud}]\n');
const log = join(dir, 'audit.log');

describe('buildAuditor: the --audit-* flags as kube-apiserver checks them', () => {
  const rows: [string, AuditFlags, string][] = [
    ['a bad format', { logPath: log, logFormat: 'xml' }, 'invalid audit log format xml, allowed formats are "legacy,json"'],
    ['a negative maxage', { logPath: log, logMaxAgeDays: -1 }, "--audit-log-maxage -1 can't be a negative number"],
    ['a negative maxbackup', { logPath: log, logMaxBackups: -2 }, "--audit-log-maxbackup -2 can't be a negative number"],
    ['a negative maxsize', { logPath: log, logMaxSizeMB: -3 }, "--audit-log-maxsize -3 can't be a negative number"],
    ['an unknown log mode', { logPath: log, logMode: 'async' }, 'invalid audit log mode async, allowed modes are "batch,blocking,blocking-strict"'],
    ['a batch buffer of 0', { logPath: log, logMode: 'batch', logBatchBufferSize: 0 }, 'invalid audit batch log buffer size 0, must be a positive number'],
    ['an unknown webhook mode', { webhookConfigFile: '/x', webhookMode: 'later' }, 'invalid audit webhook mode later, allowed modes are "batch,blocking,blocking-strict"'],
    ['a throttle QPS of 0', { webhookConfigFile: '/x', webhookBatchThrottleQPS: 0 }, 'invalid audit batch webhook throttle QPS 0, must be a positive number'],
    ['a log throttle without a burst', { logPath: log, logMode: 'batch', logBatchThrottleEnable: true, logBatchThrottleQPS: 5 }, 'invalid audit batch log throttle burst 0, must be a positive number'],
    ['a truncate max event size of 0', { logPath: log, logTruncateMaxEventSize: 0 }, 'invalid audit truncate log max event size 0, must be a positive number'],
    [
      'a truncate max batch size under the event size',
      { webhookConfigFile: '/x', webhookTruncateMaxBatchSize: 100, webhookTruncateMaxEventSize: 200 },
      'invalid audit truncate webhook max batch size 100, must be greater than max event size (200)',
    ],
    [
      'a bad policy',
      { policyFile: badPolicy, logPath: log },
      `loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${badPolicy}`,
    ],
    ['a missing webhook kubeconfig', { policyFile: policy, webhookConfigFile: join(dir, 'none') }, 'initializing audit webhook: '],
  ];
  it.each(rows)('%s', (_name, flags, message) => {
    expect(() => buildAuditor(flags)).toThrow(message);
  });

  it("the log is written off the request's path unless a blocking mode is asked for (the flag's default is the one applied)", () => {
    expect(FLAGS['audit-log-mode'].default).toBe(DEFAULT_LOG_MODE);
    expect(buildAuditor({ policyFile: policy, logPath: log })!.blocking).toBe(false);
    expect(buildAuditor({ policyFile: policy, logPath: log, logMode: 'blocking' })!.blocking).toBe(true);
  });

  it('nothing is audited without a policy or without a backend', () => {
    expect(buildAuditor({ logPath: log })).toBeUndefined();
    expect(buildAuditor({ policyFile: policy })).toBeUndefined();
    expect(buildAuditor({ policyFile: policy, logPath: log })).toBeDefined();
  });
});
