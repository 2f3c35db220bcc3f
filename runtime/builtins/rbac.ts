// RBAC at start-up: the bootstrap policy reconciled through the registry as
// the API server (upstream's rbac/bootstrap-roles post-start hook: missing
// objects created, autoupdate ones given what they lack, autoupdate "false"
// ones left alone), then, when the RBAC mode is on, the index fed by watches
// of the four kinds; startServer() returns (and /readyz passes) only once the
// index holds every kind's first full list.

import { errors } from '../api/errors.ts';
import { RBAC_GROUP } from '../api/k8s-names.ts';
import { type BootstrapPolicy, bootstrapPolicy } from '../authz/rbac/bootstrap/policy.ts';
import { type RbacIndex, type RbacKind } from '../authz/rbac/index.ts';
import { type Reconciled, reconcileBinding, reconcileRole } from '../authz/rbac/reconcile.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { RegistryStore } from '../registry/store.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { ignoreStatus } from './ignore-status.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

const RESOURCES: Record<RbacKind, string> = { Role: 'roles', ClusterRole: 'clusterroles', RoleBinding: 'rolebindings', ClusterRoleBinding: 'clusterrolebindings' };

function storeOf(api: ApiIndex, kind: RbacKind): RegistryStore | undefined {
  return api.lookup(RBAC_GROUP, 'v1', RESOURCES[kind])?.store;
}

const objKey = (o: Obj) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

/** Reconciles one kind's expected objects against what is stored; returns the notes worth logging. */
async function reconcileKind(store: RegistryStore, kind: RbacKind, expected: Obj[], reconcile: (existing: Obj | undefined, expected: Obj) => Reconciled): Promise<string[]> {
  const notes: string[] = [];
  const stored = new Map((await store.list('', {})).items.map((o) => [objKey(o), o]));
  const opts = { writer: APISERVER_WRITER };
  // the missing objects (all of them on a first start) are created together: one durable commit carries many
  const creates: Promise<unknown>[] = [];
  for (const want of expected) {
    const ns = want.metadata.namespace ?? '';
    const name = want.metadata.name;
    const first = reconcile(stored.get(objKey(want)), want);
    if (first.op === 'none') continue;
    if (first.op === 'protected') {
      notes.push(`${want.kind} ${ns ? `${ns}/` : ''}${name} is not updated (autoupdate "false"); it lacks ${first.missing} expected rule(s) or subject(s)`);
      continue;
    }
    if (first.op === 'create') {
      creates.push(store.create(ns, first.object, opts).catch(ignoreStatus([409])));
      continue;
    }
    if (first.op === 'recreate') {
      await store.delete(ns, name, opts).catch(ignoreStatus([404]));
      const md: Obj = { name, labels: first.object.metadata.labels, annotations: first.object.metadata.annotations };
      if (ns) md.namespace = ns;
      await store.create(ns, { ...first.object, metadata: md }, opts).catch(ignoreStatus([409]));
      continue;
    }
    // reconciled again against the live object inside the store's read-modify-write
    await store
      .update(
        ns,
        name,
        (live) => {
          if (!live) throw errors.notFound({ group: RBAC_GROUP, resource: RESOURCES[kind] }, name);
          const r = reconcile(live, want);
          return r.op === 'update' ? r.object : live;
        },
        opts,
      )
      .catch(ignoreStatus([404]));
  }
  await Promise.all(creates);
  return notes;
}

/** Creates or updates the bootstrap policy; the notes are for the log. */
export async function reconcileBootstrapPolicy(api: ApiIndex, policy: BootstrapPolicy = bootstrapPolicy()): Promise<string[]> {
  const steps: [RbacKind, Obj[], typeof reconcileRole][] = [
    ['ClusterRole', policy.clusterRoles, reconcileRole],
    ['ClusterRoleBinding', policy.clusterRoleBindings, reconcileBinding],
    ['Role', policy.roles, reconcileRole],
    ['RoleBinding', policy.roleBindings, reconcileBinding],
  ];
  const notes: string[] = [];
  for (const [kind, objs, reconcile] of steps) {
    const store = storeOf(api, kind);
    if (store) notes.push(...(await reconcileKind(store, kind, objs, reconcile)));
  }
  return notes;
}

/** Keeps `index` current from watches of the four kinds; resolves once the index is synced. */
export async function startRbacIndex(api: ApiIndex, index: RbacIndex): Promise<WatchLoop> {
  const loops: WatchLoop[] = [];
  for (const kind of Object.keys(RESOURCES) as RbacKind[]) {
    const store = storeOf(api, kind);
    if (!store) {
      // the group is switched off (--runtime-config): nothing can be bound
      index.replace(kind, []);
      continue;
    }
    loops.push(
      startWatchLoop(store, '', {
        resync: (items) => index.replace(kind, items),
        event: (ev) => (ev.type === 'DELETED' ? index.remove(kind, ev.object) : index.upsert(kind, ev.object)),
      }),
    );
  }
  await index.synced;
  return {
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
