// The RBAC objects in memory: Roles, ClusterRoles, RoleBindings and
// ClusterRoleBindings as the watches of runtime/builtins/rbac.ts deliver
// them, with the bindings filed by subject (user name, group name, service
// account username) and, for RoleBindings, by namespace. A decision reads
// only the bindings filed under the request's user and groups, never every
// binding. Until each kind's first full list arrived the index is not
// synced, and the authorizer waits for it (upstream waits for its informers).

import { goQuote } from '../../api/go-format.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { Obj } from '../../storage/interface.ts';
import type { PolicyRule } from './rules.ts';
import { type Subject, subjectKey, userKeys } from './subjects.ts';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
export const RBAC_KINDS: readonly RbacKind[] = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'];

export interface RoleRef {
  apiGroup?: string;
  kind: string;
  name: string;
}

/** A RoleBinding (namespace set) or ClusterRoleBinding (namespace ''). */
export interface Binding {
  name: string;
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
}

type BindingSet = Set<Binding>;

const EMPTY: readonly Binding[] = Object.freeze([]);

function toBinding(o: Obj): Binding {
  return {
    name: String(o.metadata?.name ?? ''),
    namespace: String(o.metadata?.namespace ?? ''),
    roleRef: { apiGroup: o.roleRef?.apiGroup, kind: String(o.roleRef?.kind ?? ''), name: String(o.roleRef?.name ?? '') },
    subjects: Array.isArray(o.subjects) ? (o.subjects as Subject[]) : [],
  };
}

function rulesOf(o: Obj): PolicyRule[] {
  return Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : [];
}

const key = (namespace: string, name: string) => `${namespace}/${name}`;

export class RbacIndex {
  private readonly roles = new Map<string, PolicyRule[]>();
  private readonly clusterRoles = new Map<string, PolicyRule[]>();
  private readonly roleBindings = new Map<string, Binding>();
  private readonly clusterRoleBindings = new Map<string, Binding>();
  /** subject key → ClusterRoleBindings naming it */
  private readonly clusterBySubject = new Map<string, BindingSet>();
  /** subject key → namespace → RoleBindings naming it */
  private readonly nsBySubject = new Map<string, Map<string, BindingSet>>();
  private readonly listed = new Set<RbacKind>();
  private resolveSynced!: () => void;
  /** Resolves once every kind's first full list is in. */
  readonly synced: Promise<void> = new Promise((r) => (this.resolveSynced = r));
  isSynced = false;

  /** Replaces everything of `kind` with a full list (start and every re-list). */
  replace(kind: RbacKind, items: Obj[]): void {
    switch (kind) {
      case 'Role':
        this.roles.clear();
        break;
      case 'ClusterRole':
        this.clusterRoles.clear();
        break;
      case 'RoleBinding':
        for (const b of [...this.roleBindings.values()]) this.unfile(b);
        this.roleBindings.clear();
        break;
      case 'ClusterRoleBinding':
        for (const b of [...this.clusterRoleBindings.values()]) this.unfile(b);
        this.clusterRoleBindings.clear();
        break;
    }
    for (const o of items) this.upsert(kind, o);
    this.listed.add(kind);
    if (!this.isSynced && RBAC_KINDS.every((k) => this.listed.has(k))) {
      this.isSynced = true;
      this.resolveSynced();
    }
  }

  /** An object of `kind` added or modified. */
  upsert(kind: RbacKind, o: Obj): void {
    const ns = String(o.metadata?.namespace ?? '');
    const name = String(o.metadata?.name ?? '');
    switch (kind) {
      case 'Role':
        this.roles.set(key(ns, name), rulesOf(o));
        return;
      case 'ClusterRole':
        this.clusterRoles.set(name, rulesOf(o));
        return;
      case 'RoleBinding':
      case 'ClusterRoleBinding': {
        const map = kind === 'RoleBinding' ? this.roleBindings : this.clusterRoleBindings;
        const old = map.get(key(ns, name));
        if (old) this.unfile(old);
        const b = toBinding(o);
        if (kind === 'ClusterRoleBinding') b.namespace = '';
        map.set(key(ns, name), b);
        this.file(b);
      }
    }
  }

  /** An object of `kind` deleted. */
  remove(kind: RbacKind, o: Obj): void {
    const ns = String(o.metadata?.namespace ?? '');
    const name = String(o.metadata?.name ?? '');
    switch (kind) {
      case 'Role':
        this.roles.delete(key(ns, name));
        return;
      case 'ClusterRole':
        this.clusterRoles.delete(name);
        return;
      case 'RoleBinding':
      case 'ClusterRoleBinding': {
        const map = kind === 'RoleBinding' ? this.roleBindings : this.clusterRoleBindings;
        const old = map.get(key(ns, name));
        if (old) this.unfile(old);
        map.delete(key(ns, name));
      }
    }
  }

  private slot(k: string, ns: string, create: boolean): BindingSet | undefined {
    if (!ns) {
      let s = this.clusterBySubject.get(k);
      if (!s && create) this.clusterBySubject.set(k, (s = new Set()));
      return s;
    }
    let byNs = this.nsBySubject.get(k);
    if (!byNs) {
      if (!create) return undefined;
      this.nsBySubject.set(k, (byNs = new Map()));
    }
    let s = byNs.get(ns);
    if (!s && create) byNs.set(ns, (s = new Set()));
    return s;
  }

  private file(b: Binding): void {
    for (const s of b.subjects) {
      const k = s && subjectKey(s, b.namespace);
      if (k) this.slot(k, b.namespace, true)!.add(b);
    }
  }

  private unfile(b: Binding): void {
    for (const s of b.subjects) {
      const k = s && subjectKey(s, b.namespace);
      if (!k) continue;
      const set = this.slot(k, b.namespace, false);
      if (!set) continue;
      set.delete(b);
      if (set.size) continue;
      if (!b.namespace) this.clusterBySubject.delete(k);
      else {
        const byNs = this.nsBySubject.get(k)!;
        byNs.delete(b.namespace);
        if (!byNs.size) this.nsBySubject.delete(k);
      }
    }
  }

  /** The bindings that may apply to `user`: ClusterRoleBindings, or RoleBindings of `namespace`. Each once. */
  bindingsFor(user: UserInfo, namespace: string): readonly Binding[] {
    let out: Binding[] | undefined;
    let seen: Set<Binding> | undefined;
    for (const k of userKeys(user)) {
      const set = namespace ? this.nsBySubject.get(k)?.get(namespace) : this.clusterBySubject.get(k);
      if (!set) continue;
      for (const b of set) {
        if (!out) {
          out = [b];
          continue;
        }
        seen ??= new Set(out);
        if (seen.has(b)) continue;
        seen.add(b);
        out.push(b);
      }
    }
    return out ?? EMPTY;
  }

  /** The rules a binding's roleRef names, or upstream's error text when it cannot be resolved. */
  roleRules(ref: RoleRef, bindingNamespace: string): PolicyRule[] | Error {
    switch (ref.kind) {
      case 'Role':
        return this.roles.get(key(bindingNamespace, ref.name)) ?? new Error(`role.rbac.authorization.k8s.io ${goQuote(ref.name)} not found`);
      case 'ClusterRole':
        return this.clusterRoles.get(ref.name) ?? new Error(`clusterrole.rbac.authorization.k8s.io ${goQuote(ref.name)} not found`);
      default:
        return new Error(`unsupported role reference kind: ${goQuote(ref.kind)}`);
    }
  }

  /** Sizes (tests and the benchmark's sanity check). */
  counts(): Record<RbacKind, number> {
    return { Role: this.roles.size, ClusterRole: this.clusterRoles.size, RoleBinding: this.roleBindings.size, ClusterRoleBinding: this.clusterRoleBindings.size };
  }
}
