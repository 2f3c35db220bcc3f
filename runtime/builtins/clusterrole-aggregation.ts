// The clusterrole-aggregation controller (kube-controller-manager's): the
// rules of every ClusterRole with an aggregationRule are the rules of the
// ClusterRoles its clusterRoleSelectors match (selector by selector, roles
// by name, each rule once, the aggregate itself left out), kept current on
// every ClusterRole change. It writes only when the rules differ (its own
// write changes nothing on the next pass), through the registry pipeline as
// its service account; a write that fails is tried again on the next change.

import { ApiError } from '../api/errors.ts';
import { jsonEqual } from '../api/json-equal.ts';
import { RBAC_GROUP } from '../api/k8s-names.ts';
import { type LabelSelectorObject, selectorMatches } from '../api/label-selector.ts';
import type { ApiIndex } from '../registry/served.ts';
import { CLUSTER_ROLE_AGGREGATION_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

type Rule = Record<string, unknown>;

/** A rule with its empty lists left out: upstream compares rules semantically (an empty list is no list). */
function normalRule(rule: Rule): Rule {
  const out: Rule = {};
  for (const [k, v] of Object.entries(rule)) if (v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  return out;
}

/** One text per rule as normalRule compares them (jsonEqual: object keys in any order, arrays in order): keys sorted at every depth. */
function ruleKey(rule: Rule): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    return Object.keys(o)
      .sort()
      .map((k) => [k, canonical(o[k])]);
  };
  return JSON.stringify(canonical(normalRule(rule)));
}

const byName = (a: Obj, b: Obj): number => {
  const x: string = a.metadata?.name ?? '';
  const y: string = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The rules `aggregate` gathers from `roles` (all ClusterRoles); undefined when it has no aggregationRule. */
export function aggregatedRules(aggregate: Obj, roles: Obj[]): Rule[] | undefined {
  const rule = aggregate.aggregationRule;
  if (!rule || typeof rule !== 'object') return undefined;
  const selectors: LabelSelectorObject[] = Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
  const sorted = [...roles].sort(byName);
  const out: Rule[] = [];
  // each rule once: a set of their texts (comparing each rule with every one kept was quadratic, some 5,000 comparisons for admin)
  const seen = new Set<string>();
  for (const selector of selectors) {
    for (const role of sorted) {
      if (role.metadata?.name === aggregate.metadata?.name || !selectorMatches(selector, role.metadata?.labels ?? {})) continue;
      for (const r of Array.isArray(role.rules) ? (role.rules as Rule[]) : []) {
        if (!r || typeof r !== 'object') continue;
        const key = ruleKey(r);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(r);
      }
    }
  }
  return out;
}

/** Whether the aggregate's rules already are `rules`. */
export function rulesUnchanged(aggregate: Obj, rules: Rule[]): boolean {
  const current: Rule[] = Array.isArray(aggregate.rules) ? aggregate.rules : [];
  return jsonEqual(current.map(normalRule), rules.map(normalRule));
}

export function startClusterRoleAggregation(api: ApiIndex): WatchLoop | undefined {
  const res = api.lookup(RBAC_GROUP, 'v1', 'clusterroles');
  if (!res) return undefined;
  const store = res.store;
  const roles = new Map<string, Obj>();
  let dirty = false;
  let running: Promise<void> | undefined;
  let stopped = false;

  const syncOne = async (aggregate: Obj): Promise<void> => {
    const rules = aggregatedRules(aggregate, [...roles.values()]);
    if (!rules || rulesUnchanged(aggregate, rules)) return;
    const name: string = aggregate.metadata.name;
    try {
      await store.update(
        '',
        name,
        (live) => {
          if (!live) throw new ApiError(404, 'NotFound', `clusterrole ${name} is gone`);
          return { ...live, rules: structuredClone(rules) };
        },
        { writer: CLUSTER_ROLE_AGGREGATION_WRITER },
      );
    } catch (err) {
      // gone, changed meanwhile, or refused: the next ClusterRole change syncs it again
      if (!(err instanceof ApiError)) throw err;
    }
  };
  // one pass over every aggregate at a time; a change during a pass asks for another
  const schedule = (): void => {
    dirty = true;
    if (running) return;
    running = (async () => {
      while (dirty && !stopped) {
        dirty = false;
        for (const role of [...roles.values()].sort(byName)) {
          if (stopped) break;
          if (role.aggregationRule) await syncOne(role);
        }
      }
    })()
      .catch(() => {
        // storage closing; the watch loop resyncs once it can read again
      })
      .finally(() => {
        running = undefined;
        if (dirty && !stopped) schedule();
      });
  };

  const loop = startWatchLoop(store, '', {
    resync(items) {
      roles.clear();
      for (const r of items) roles.set(r.metadata.name, r);
      schedule();
    },
    event(ev) {
      if (ev.type === 'DELETED') roles.delete(ev.object.metadata.name);
      else roles.set(ev.object.metadata.name, ev.object);
      schedule();
    },
  });
  return {
    async stop() {
      stopped = true;
      await loop.stop();
      await running;
    },
  };
}
