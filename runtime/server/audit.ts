// The audit set-up of the --audit-* flags: the policy file, the log backend
// (--audit-log-*) and the webhook backend (--audit-webhook-*), each in its
// mode (log: blocking, webhook: batch by default) with its batch and
// truncate options, checked as kube-apiserver checks them (its texts), with
// upstream's defaults. Without a policy file, or without any backend,
// nothing is audited (upstream then records no events). A problem stops
// start-up with an AuditSetupError.

import { Auditor } from '../audit/auditor.ts';
import { type BackendMode, type LogFormat, logBackend } from '../audit/log-backend.ts';
import type { TruncateConfig } from '../audit/truncate.ts';
import { AuditPolicyError, loadPolicyFile } from '../audit/policy.ts';
import { type AuditBackend, type AuditObserver, unionBackend } from '../audit/sink.ts';
import { webhookBackend } from '../audit/webhook-backend.ts';
import { loadWebhookKubeconfig } from '../auth/webhook/kubeconfig.ts';

export interface AuditFlags {
  policyFile?: string;
  logPath?: string;
  logFormat?: string;
  logMaxAgeDays?: number;
  logMaxBackups?: number;
  logMaxSizeMB?: number;
  logMode?: string;
  logBatchBufferSize?: number;
  logBatchMaxSize?: number;
  logBatchMaxWaitMs?: number;
  logBatchThrottleEnable?: boolean;
  logBatchThrottleQPS?: number;
  logBatchThrottleBurst?: number;
  logCompress?: boolean;
  logTruncateEnabled?: boolean;
  logTruncateMaxBatchSize?: number;
  logTruncateMaxEventSize?: number;
  webhookConfigFile?: string;
  webhookInitialBackoffMs?: number;
  webhookMode?: string;
  webhookBatchBufferSize?: number;
  webhookBatchMaxSize?: number;
  webhookBatchMaxWaitMs?: number;
  webhookBatchThrottleEnable?: boolean;
  webhookBatchThrottleQPS?: number;
  webhookBatchThrottleBurst?: number;
  webhookTruncateEnabled?: boolean;
  webhookTruncateMaxBatchSize?: number;
  webhookTruncateMaxEventSize?: number;
}

/** Upstream's truncate defaults: 10 MiB batches, 100 KiB events. */
export const TRUNCATE_MAX_BATCH_SIZE = 10 * 1024 * 1024;
export const TRUNCATE_MAX_EVENT_SIZE = 100 * 1024;

export class AuditSetupError extends Error {}

const MODES = ['batch', 'blocking', 'blocking-strict'];
const FORMATS = ['legacy', 'json'];

function mode(plugin: string, m: string): BackendMode {
  if (!MODES.includes(m)) throw new AuditSetupError(`invalid audit ${plugin} mode ${m}, allowed modes are "${MODES.join(',')}"`);
  return m as BackendMode;
}

function positive(plugin: string, what: string, v: number, m: BackendMode): number {
  if (m === 'batch' && !(v > 0)) throw new AuditSetupError(`invalid audit batch ${plugin} ${what} ${v}, must be a positive number`);
  return v;
}

function truncateConfig(plugin: string, maxBatchSize: number | undefined, maxEventSize: number | undefined): TruncateConfig {
  const cfg = { maxBatchSize: maxBatchSize ?? TRUNCATE_MAX_BATCH_SIZE, maxEventSize: maxEventSize ?? TRUNCATE_MAX_EVENT_SIZE };
  if (!(cfg.maxEventSize > 0)) throw new AuditSetupError(`invalid audit truncate ${plugin} max event size ${cfg.maxEventSize}, must be a positive number`);
  if (cfg.maxBatchSize < cfg.maxEventSize) throw new AuditSetupError(`invalid audit truncate ${plugin} max batch size ${cfg.maxBatchSize}, must be greater than max event size (${cfg.maxEventSize})`);
  return cfg;
}

/** Checks the flags (kube-apiserver's option validation); throws AuditSetupError. */
export function validateAuditFlags(f: AuditFlags): void {
  if (f.logPath) {
    for (const [flag, v] of [
      ['maxage', f.logMaxAgeDays],
      ['maxbackup', f.logMaxBackups],
      ['maxsize', f.logMaxSizeMB],
    ] as const) {
      if ((v ?? 0) < 0) throw new AuditSetupError(`--audit-log-${flag} ${v} can't be a negative number`);
    }
    const format = f.logFormat ?? 'json';
    if (!FORMATS.includes(format)) throw new AuditSetupError(`invalid audit log format ${format}, allowed formats are "${FORMATS.join(',')}"`);
    const m = mode('log', f.logMode ?? DEFAULT_LOG_MODE);
    positive('log', 'buffer size', f.logBatchBufferSize ?? 10000, m);
    positive('log', 'max batch size', f.logBatchMaxSize ?? 1, m);
    if (f.logBatchThrottleEnable ?? false) {
      positive('log', 'throttle QPS', f.logBatchThrottleQPS ?? 0, m);
      positive('log', 'throttle burst', f.logBatchThrottleBurst ?? 0, m);
    }
    truncateConfig('log', f.logTruncateMaxBatchSize, f.logTruncateMaxEventSize);
  }
  if (f.webhookConfigFile) {
    const m = mode('webhook', f.webhookMode ?? 'batch');
    positive('webhook', 'buffer size', f.webhookBatchBufferSize ?? 10000, m);
    positive('webhook', 'max batch size', f.webhookBatchMaxSize ?? 400, m);
    if (f.webhookBatchThrottleEnable ?? true) {
      positive('webhook', 'throttle QPS', f.webhookBatchThrottleQPS ?? 10, m);
      positive('webhook', 'throttle burst', f.webhookBatchThrottleBurst ?? 15, m);
    }
    truncateConfig('webhook', f.webhookTruncateMaxBatchSize, f.webhookTruncateMaxEventSize);
  }
}

/**
 * --audit-log-mode when not given: batch, so that writing the log is off the
 * request's path (kube-apiserver's default is blocking; `blocking` and
 * `blocking-strict` behave as upstream's when asked for).
 */
export const DEFAULT_LOG_MODE: BackendMode = 'batch';

/** The auditor of the flags, or undefined when nothing is audited; `observer` counts its events, levels and failures (the server's metrics). */
export function buildAuditor(f: AuditFlags, warn: (msg: string) => void = (m) => console.warn(m), observer?: AuditObserver): Auditor | undefined {
  validateAuditFlags(f);
  let policy;
  if (f.policyFile) {
    try {
      policy = loadPolicyFile(f.policyFile);
    } catch (err) {
      if (err instanceof AuditPolicyError) throw new AuditSetupError(err.message);
      throw err;
    }
  }
  if (!policy) return undefined;
  const backends: AuditBackend[] = [];
  if (f.logPath) {
    const m = (f.logMode ?? DEFAULT_LOG_MODE) as BackendMode;
    backends.push(
      logBackend({
        path: f.logPath,
        format: (f.logFormat ?? 'json') as LogFormat,
        mode: m,
        bufferSize: f.logBatchBufferSize ?? 10000,
        maxBatchSize: f.logBatchMaxSize ?? 1,
        maxBatchWaitMs: f.logBatchMaxWaitMs ?? 0,
        throttleEnable: f.logBatchThrottleEnable ?? false,
        throttleQPS: f.logBatchThrottleQPS ?? 0,
        throttleBurst: f.logBatchThrottleBurst ?? 0,
        maxSizeMB: f.logMaxSizeMB ?? 0,
        maxBackups: f.logMaxBackups ?? 0,
        maxAgeDays: f.logMaxAgeDays ?? 0,
        compress: f.logCompress ?? false,
        truncate: f.logTruncateEnabled ? truncateConfig('log', f.logTruncateMaxBatchSize, f.logTruncateMaxEventSize) : undefined,
        warn,
        failed: observer?.failed,
      }),
    );
  }
  if (f.webhookConfigFile) {
    let config;
    try {
      config = loadWebhookKubeconfig(f.webhookConfigFile);
    } catch (err) {
      throw new AuditSetupError(`initializing audit webhook: ${(err as Error).message}`);
    }
    backends.push(
      webhookBackend({
        config,
        mode: (f.webhookMode ?? 'batch') as BackendMode,
        bufferSize: f.webhookBatchBufferSize ?? 10000,
        maxBatchSize: f.webhookBatchMaxSize ?? 400,
        maxBatchWaitMs: f.webhookBatchMaxWaitMs ?? 30_000,
        throttleEnable: f.webhookBatchThrottleEnable ?? true,
        throttleQPS: f.webhookBatchThrottleQPS ?? 10,
        throttleBurst: f.webhookBatchThrottleBurst ?? 15,
        initialBackoffMs: f.webhookInitialBackoffMs ?? 10_000,
        truncate: f.webhookTruncateEnabled ? truncateConfig('webhook', f.webhookTruncateMaxBatchSize, f.webhookTruncateMaxEventSize) : undefined,
        warn,
        failed: observer?.failed,
      }),
    );
  }
  if (backends.length === 0) return undefined;
  return new Auditor(policy, unionBackend(backends), undefined, observer);
}
