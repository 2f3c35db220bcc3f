// Sentinel objects for the fuzz harness: ConfigMaps, Secrets and
// Deployments in two namespaces, a ClusterRole, and the two namespaces
// themselves, created before the run and never named by a fuzz request
// except through paths a correct server refuses. check() reads them back
// and reports any that is gone or differs (resourceVersion or content).
// After damage, renew() makes a fresh generation under new names so the
// run goes on finding other causes.

import type { Hono } from 'hono';
import type { SentinelNames } from './case.ts';
import { findKind, type FuzzKind, objectPath } from './kinds.ts';
import { validObject } from './objects.ts';

interface Snapshot {
  path: string;
  text: string;
  rv: string;
}

export class Sentinels {
  private generation = 0;
  names!: SentinelNames;
  private snapshots: Snapshot[] = [];

  constructor(private app: Hono<any>) {}

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const res = await this.app.request(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  }

  /** Creates a generation of sentinels and records what they look like. */
  async renew(): Promise<void> {
    const g = this.generation++;
    const suffix = g === 0 ? '' : `-g${g}`;
    this.names = {
      namespaces: [`sentinel-a${suffix}`, `sentinel-b${suffix}`],
      clusterRole: `sentinel-cluster${suffix}`,
      names: { configmaps: 'cm-sentinel', secrets: 'secret-sentinel', deployments: 'deploy-sentinel' },
    };
    const plan: [FuzzKind, string | undefined, string][] = [];
    const ns = findKind('v1', 'namespaces');
    for (const n of this.names.namespaces) plan.push([ns, undefined, n]);
    for (const n of this.names.namespaces) {
      plan.push([findKind('v1', 'configmaps'), n, this.names.names.configmaps]);
      plan.push([findKind('v1', 'secrets'), n, this.names.names.secrets]);
      plan.push([findKind('apps/v1', 'deployments'), n, this.names.names.deployments]);
    }
    plan.push([findKind('rbac.authorization.k8s.io/v1', 'clusterroles'), undefined, this.names.clusterRole]);
    this.snapshots = [];
    for (const [k, n, name] of plan) {
      const obj = validObject(k, name, n ?? '');
      // sentinels carry no fuzz-owned label: the harness's safe selector must not match them
      obj.metadata.labels = { sentinel: 'yes' };
      const coll = objectPath(k, n, name).replace(/\/[^/]+$/, '');
      const created = await this.call('POST', coll, obj);
      if (created.status !== 201) throw new Error(`creating sentinel ${coll}/${name}: ${created.status} ${created.text.slice(0, 300)}`);
      const path = objectPath(k, n, name);
      const got = await this.call('GET', path);
      this.snapshots.push({ path, text: got.text, rv: JSON.parse(got.text).metadata.resourceVersion });
    }
  }

  /** Problems found: sentinels gone or changed. */
  async check(): Promise<string[]> {
    const problems: string[] = [];
    for (const s of this.snapshots) {
      const got = await this.call('GET', s.path);
      if (got.status !== 200) {
        problems.push(`${s.path}: GET answered ${got.status}`);
        continue;
      }
      if (got.text === s.text) continue;
      let rv = '?';
      let deleting = false;
      try {
        const o = JSON.parse(got.text);
        rv = o.metadata?.resourceVersion;
        deleting = !!o.metadata?.deletionTimestamp;
      } catch {
        /* reported below */
      }
      problems.push(`${s.path}: ${deleting ? 'being deleted' : 'changed'} (resourceVersion ${s.rv} -> ${rv})`);
    }
    return problems;
  }
}
