// The webhooks of the stored Mutating- or ValidatingWebhookConfigurations,
// kept current from a watch (the built-ins feed resync() and event(), so a
// change takes effect as soon as it is stored) and ordered as upstream
// orders them: by configuration name, then by position in the
// configuration. Each webhook keeps its compiled matchConditions and its
// POST client (the configuration's clientConfig with the webhook's timeout,
// which the URL also carries as `?timeout=<n>s`, as upstream's client sends
// it); a configuration that changes or goes away closes its clients.

import type { Obj, WatchEvent } from '../../storage/interface.ts';
import { webhookPost, type ServiceResolver, type WebhookPost } from '../../webhook-client/client-config.ts';
import type { CredentialsFor } from '../../webhook-client/auth-info.ts';
import { loadAdmissionCel } from '../matching/cel.ts';
import { compileMatchConditions, type CompiledConditions, type MatchCondition } from '../matching/conditions.ts';

/** Upstream's default timeoutSeconds. */
export const DEFAULT_TIMEOUT_SECONDS = 10;

export interface WebhookEntry {
  /** Identifies the webhook across reinvocation: configuration name and position. */
  readonly key: string;
  readonly configName: string;
  readonly name: string;
  /** The webhook as stored (defaults applied at write). */
  readonly hook: Obj;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly timeoutSeconds: number;
  readonly conditions?: CompiledConditions;
  /** Why the stored matchConditions do not compile (only a configuration stored by an older server). */
  readonly conditionsError?: string;
  /** The webhook's POST (made at first use). */
  client(): WebhookPost;
}

export interface WebhookConfigsOptions {
  resolveService?: ServiceResolver;
  /** The credentials presented to webhooks (the plugin's kubeConfigFile); absent: none. */
  credentials?: CredentialsFor;
}

const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export class WebhookConfigs {
  private readonly byName = new Map<string, WebhookEntry[]>();
  private readonly clients = new Map<string, WebhookPost>();
  private ordered: WebhookEntry[] = [];

  constructor(private readonly opts: WebhookConfigsOptions = {}) {}

  /** Every webhook, in calling order. */
  get hooks(): readonly WebhookEntry[] {
    return this.ordered;
  }

  async resync(items: Obj[]): Promise<void> {
    const names = new Set(items.map((o) => String(o.metadata?.name ?? '')));
    for (const name of [...this.byName.keys()]) if (!names.has(name)) this.remove(name);
    for (const o of items) await this.put(o);
    this.reorder();
  }

  async event(ev: WatchEvent): Promise<void> {
    const name = String(ev.object.metadata?.name ?? '');
    if (ev.type === 'DELETED') this.remove(name);
    else await this.put(ev.object);
    this.reorder();
  }

  /** Closes every client. */
  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }

  private remove(name: string): void {
    for (const e of this.byName.get(name) ?? []) this.closeClient(e.key);
    this.byName.delete(name);
  }

  private closeClient(key: string): void {
    this.clients.get(key)?.close();
    this.clients.delete(key);
  }

  private async put(config: Obj): Promise<void> {
    const configName = String(config.metadata?.name ?? '');
    this.remove(configName);
    const hooks = arr(config.webhooks);
    if (hooks.some((h) => arr(h.matchConditions).length > 0)) await loadAdmissionCel();
    const entries = hooks.map((hook, i) => this.entry(configName, `${configName}/${i}/${config.metadata?.resourceVersion ?? ''}`, hook));
    this.byName.set(configName, entries);
  }

  private entry(configName: string, key: string, hook: Obj): WebhookEntry {
    const timeoutSeconds = typeof hook.timeoutSeconds === 'number' ? hook.timeoutSeconds : DEFAULT_TIMEOUT_SECONDS;
    let conditions: CompiledConditions | undefined;
    let conditionsError: string | undefined;
    const mcs = arr(hook.matchConditions) as MatchCondition[];
    if (mcs.length) {
      const c = compileMatchConditions(mcs, 'matchConditions');
      if (c.conditions) conditions = c.conditions;
      else conditionsError = c.errors.map((e) => e.toString()).join('; ');
    }
    return {
      key,
      configName,
      name: String(hook.name ?? ''),
      hook,
      failurePolicy: hook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      timeoutSeconds,
      conditions,
      conditionsError,
      client: () => {
        let c = this.clients.get(key);
        if (!c) {
          c = webhookPost(hook.clientConfig, { timeoutMs: timeoutSeconds * 1000, resolveService: this.opts.resolveService, query: `timeout=${timeoutSeconds}s`, credentials: this.opts.credentials });
          this.clients.set(key, c);
        }
        return c;
      },
    };
  }

  private reorder(): void {
    this.ordered = [...this.byName.keys()].sort().flatMap((n) => this.byName.get(n)!);
  }
}
