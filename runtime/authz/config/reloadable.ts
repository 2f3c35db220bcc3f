// The chain built from `--authorization-config`: system:masters first, then
// the file's authorizers in order (webhooks built from their settings, the
// other types from the server's single instance of each). The file is read
// again when it changes (a watch on its directory, so editors that replace
// the file are seen) and every 60 s; when its content changed and is valid,
// a new chain replaces the old in one assignment, so a request in flight
// finishes with the chain it started with. As upstream, a reload may
// reorder the non-webhook authorizers but not remove one (`missing required
// types`), nor add ABAC, RBAC or Node when they were not there at start;
// webhooks may change freely. A bad reload keeps the old chain and logs why.

import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadWebhookKubeconfig, type WebhookClientConfig } from '../../auth/webhook/kubeconfig.ts';
import type { RetryBackoff } from '../../auth/webhook/retry.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { Attributes } from '../attributes.ts';
import { type AuthorizationMode, type Authorizer, type RuleResolver, unionAuthorizer, unionRuleResolver } from '../authorizer.ts';
import { WebhookAuthorizer, webhookMode } from '../webhook/authorizer.ts';
import { AuthorizationConfigError, type AuthorizationConfig, type AuthorizerEntry, parseAuthorizationConfig } from './load.ts';

export const RELOAD_INTERVAL_MS = 60_000;
/** Types that exist once per server and may only be reordered by a reload. */
const STARTUP_ONLY = ['ABAC', 'RBAC', 'Node'];

export interface ReloadableOptions {
  file: string;
  /** The authorizer asked before the file's (system:masters). */
  first: Authorizer;
  /** Builds the server's instance of a non-webhook type. */
  buildMode: (type: string) => AuthorizationMode;
  now: () => number;
  log: (msg: string) => void;
  sleep?: (ms: number) => Promise<void>;
  retryBackoff?: RetryBackoff;
  /** Test hook: the reload interval (default 60 s; 0: no timer). */
  intervalMs?: number;
}

interface Chain {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
  modes: string[];
  webhooks: WebhookAuthorizer[];
}

/** Reads a file with Go's error texts (`open <path>: no such file or directory`). */
function readConfigFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AuthorizationConfigError(`open ${path}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message}`);
  }
}

/** The client of a webhook's connectionInfo. */
function webhookClient(entry: AuthorizerEntry): WebhookClientConfig {
  const ci = entry.webhook!.connectionInfo;
  if (ci.type === 'KubeConfigFile') return loadWebhookKubeconfig(ci.kubeConfigFile!);
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new AuthorizationConfigError('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
  try {
    return {
      server: new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}/`),
      insecureSkipTLSVerify: false,
      ca: readFileSync(`${dir}/ca.crt`),
      token: readFileSync(`${dir}/token`, 'utf8').trim(),
    };
  } catch (err) {
    throw new AuthorizationConfigError(`unable to load in-cluster configuration: ${(err as Error).message}`);
  }
}

export class ReloadableAuthorization implements Authorizer, RuleResolver {
  private current!: Chain;
  private lastText = '';
  private readonly instances = new Map<string, AuthorizationMode>();
  private requireTypes: string[] = [];
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly retired: WebhookAuthorizer[] = [];

  /** Reads and builds the file's chain; a bad file throws (AuthorizationConfigError or FileError). */
  constructor(private readonly o: ReloadableOptions) {
    const text = readConfigFile(o.file);
    const config = parseAuthorizationConfig(text);
    for (const a of config.authorizers) if (a.type !== 'Webhook' && !this.instances.has(a.type)) this.instances.set(a.type, o.buildMode(a.type));
    this.requireTypes = [...new Set(config.authorizers.filter((a) => a.type !== 'Webhook').map((a) => a.type))];
    this.current = this.build(config);
    this.lastText = text;
  }

  /** Each request uses the chain current when it arrives, to the end. */
  authorize(a: Attributes) {
    return this.current.authorizer.authorize(a);
  }

  rulesFor(user: UserInfo, namespace: string) {
    return this.current.ruleResolver.rulesFor(user, namespace);
  }

  get modes(): string[] {
    return this.current.modes;
  }

  /** Starts watching the file and the periodic re-read. */
  start(): void {
    const interval = this.o.intervalMs ?? RELOAD_INTERVAL_MS;
    if (interval > 0) {
      this.timer = setInterval(() => this.checkFile(), interval);
      this.timer.unref();
    }
    try {
      const name = basename(this.o.file);
      this.watcher = watch(dirname(this.o.file), { persistent: false }, (_event, changed) => {
        if (!changed || changed.toString() === name) this.checkFile();
      });
      this.watcher.on('error', (err) => this.o.log(`watching authorization config file: ${err.message}`));
    } catch (err) {
      this.o.log(`watching authorization config file: ${(err as Error).message} (re-read every ${interval / 1000}s)`);
    }
  }

  /** Re-reads the file; a changed, valid one replaces the chain. Returns whether it did. */
  checkFile(): boolean {
    if (this.closed) return false;
    let text: string;
    try {
      text = readConfigFile(this.o.file);
    } catch (err) {
      this.o.log(`reloading authorization config: ${(err as Error).message}`);
      return false;
    }
    if (text === this.lastText) return false;
    this.lastText = text;
    this.o.log('found new authorization config data');
    let next: Chain;
    try {
      next = this.build(parseAuthorizationConfig(text, this.requireTypes));
    } catch (err) {
      // whatever went wrong, the server keeps running with the chain it has
      this.o.log(`reloading authorization config: ${(err as Error).message}; keeping the previous configuration`);
      return false;
    }
    const old = this.current;
    this.current = next;
    this.retire(old.webhooks);
    this.o.log(`reloaded authorization config: ${next.modes.join(',')}`);
    return true;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.watcher?.close();
    for (const w of [...this.current.webhooks, ...this.retired]) w.close();
  }

  /** Old webhook clients are closed a while later, after requests that still use them. */
  private retire(webhooks: WebhookAuthorizer[]): void {
    if (!webhooks.length) return;
    this.retired.push(...webhooks);
    setTimeout(() => {
      for (const w of webhooks) {
        w.close();
        this.retired.splice(this.retired.indexOf(w), 1);
      }
    }, RELOAD_INTERVAL_MS).unref();
  }

  private build(config: AuthorizationConfig): Chain {
    const modes: AuthorizationMode[] = [];
    const webhooks: WebhookAuthorizer[] = [];
    try {
      for (const a of config.authorizers) {
        if (a.type === 'Webhook') {
          const s = a.webhook!;
          const w = new WebhookAuthorizer({
            client: webhookClient(a),
            version: s.subjectAccessReviewVersion,
            authorizedTtlMs: s.authorizedTtlMs,
            unauthorizedTtlMs: s.unauthorizedTtlMs,
            timeoutMs: s.timeoutMs,
            decisionOnError: s.failurePolicy === 'Deny' ? 'deny' : 'noopinion',
            matcher: s.matcher,
            name: a.name,
            now: this.o.now,
            log: this.o.log,
            sleep: this.o.sleep,
            retryBackoff: this.o.retryBackoff,
          });
          webhooks.push(w);
          modes.push(webhookMode(w, `Webhook/${a.name}`));
          continue;
        }
        let m = this.instances.get(a.type);
        if (!m) {
          if (STARTUP_ONLY.includes(a.type)) throw new AuthorizationConfigError(`authorizer type ${a.type} is not allowed if it was not enabled at initial server startup`);
          m = this.o.buildMode(a.type);
          this.instances.set(a.type, m);
        }
        modes.push(m);
      }
    } catch (err) {
      for (const w of webhooks) w.close();
      throw err;
    }
    return {
      authorizer: unionAuthorizer([this.o.first, ...modes.map((m) => m.authorizer)]),
      ruleResolver: unionRuleResolver(modes.map((m) => m.ruleResolver)),
      modes: modes.map((m) => m.name),
      webhooks,
    };
  }
}
