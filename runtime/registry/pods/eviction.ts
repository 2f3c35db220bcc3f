// The pods/eviction subresource's rules, as kube-apiserver 1.31's eviction
// REST has them. A pod that is Pending, Succeeded, Failed or already being
// deleted is deleted at once (PodDisruptionBudgets are not asked); for any
// other pod, the one budget whose selector matches its labels must allow a
// disruption: its status must have observed its current generation (else
// 429 "still being processed"), disruptionsAllowed must be above zero (else
// 429 naming what the budget needs), and the eviction then decrements it
// and records the pod in status.disruptedPods before the delete. More than
// one matching budget is a 500 Status; an unready pod is deleted without
// using the budget when the budget is healthy anyway (or its
// unhealthyPodEvictionPolicy is AlwaysAllow), with the pod's
// resourceVersion as a precondition. Before a (non-dry-run) delete the pod
// gets the DisruptionTarget condition. Writes go through the registry
// stores as the API server itself.

import { ApiError, errors } from '../../api/errors.ts';
import { selectorMatches } from '../../api/label-selector.ts';
import type { Obj } from '../../storage/interface.ts';
import type { RegistryStore } from '../store.ts';
import { APISERVER_WRITER } from '../write-services.ts';

/** More recorded disruptions than this and a budget refuses evictions (the PDB controller is behind). */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** How often a write that lost a race (409) is tried again. */
const CONFLICT_RETRIES = 5;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

export interface EvictionStores {
  pods: RegistryStore;
  budgets?: RegistryStore;
}

export interface EvictionOptions {
  dryRun: boolean;
  /** The eviction's deleteOptions.preconditions. */
  preconditions?: { uid?: string; resourceVersion?: string };
  /** The clock that stamps disruptedPods and condition transitions. */
  now?: () => Date;
}

/** The Status a successful eviction answers with. */
export const EVICTION_SUCCESS: Obj = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

function budgetError(message: string, retryAfterSeconds: number): ApiError {
  const details = { ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}), causes: [{ reason: 'DisruptionBudget', message }] };
  return new ApiError(429, 'TooManyRequests', VIOLATION, details, retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : undefined);
}

/** The 429 of a budget whose status has not caught up with its spec (or of a pod that turned ready meanwhile). */
export function stillProcessing(budget: string): ApiError {
  return budgetError(`The disruption budget ${budget} is still being processed by the server.`, 10);
}

const isConflict = (err: unknown) => err instanceof ApiError && err.code === 409;

async function retryOnConflict<T>(fn: () => Promise<T>, retry: boolean): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!retry || !isConflict(err) || i + 1 >= CONFLICT_RETRIES) throw err;
    }
  }
}

function canIgnoreBudget(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

function shouldEnforceResourceVersion(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp);
}

export function isPodReady(pod: Obj): boolean {
  const conds: Obj[] = Array.isArray(pod.status?.conditions) ? pod.status.conditions : [];
  return conds.some((c) => c?.type === 'Ready' && c?.status === 'True');
}

/** The budgets in the pod's namespace whose selector matches its labels (a missing selector matches nothing). */
export function matchingBudgets(budgets: Obj[], pod: Obj): Obj[] {
  return budgets.filter((b) => b.spec?.selector && selectorMatches(b.spec.selector, pod.metadata?.labels ?? {}));
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The DisruptionAllowed condition for a budget's current count (SetStatusCondition: the time moves only when the status changes). */
function setDisruptionAllowed(status: Obj, now: Date): void {
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  const cond = { type: 'DisruptionAllowed', status: allowed ? 'True' : 'False', reason: allowed ? 'SufficientPods' : 'InsufficientPods', message: '' };
  const conds: Obj[] = Array.isArray(status.conditions) ? status.conditions : [];
  const i = conds.findIndex((c) => c?.type === 'DisruptionAllowed');
  if (i < 0) conds.push({ ...cond, lastTransitionTime: rfc3339(now) });
  else {
    const was = conds[i];
    conds[i] = { ...was, ...cond, lastTransitionTime: was.status === cond.status && was.lastTransitionTime ? was.lastTransitionTime : rfc3339(now) };
  }
  status.conditions = conds;
}

/**
 * checkAndDecrement: refuses (429/403) unless the budget allows a
 * disruption, else stores the decremented budget with the pod recorded in
 * disruptedPods (a dry run stores nothing). A stale budget is 409 from the
 * store, retried by the caller.
 */
async function checkAndDecrement(stores: EvictionStores, pdb: Obj, podName: string, opts: EvictionOptions): Promise<void> {
  const name = pdb.metadata.name;
  const st: Obj = structuredClone(pdb.status ?? {});
  if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw stillProcessing(name);
  const allowed = st.disruptionsAllowed ?? 0;
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if (allowed < 0) throw errors.forbidden(gr, name, 'pdb disruptions allowed is negative');
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw errors.forbidden(gr, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) throw budgetError(`The disruption budget ${name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`, 0);
  if (opts.dryRun || !stores.budgets) return;
  const now = opts.now?.() ?? new Date();
  st.disruptionsAllowed = allowed - 1;
  if (st.disruptionsAllowed === 0) setDisruptionAllowed(st, now);
  st.disruptedPods = { ...(st.disruptedPods ?? {}), [podName]: rfc3339(now) };
  const rv = pdb.metadata.resourceVersion;
  await stores.budgets.update(
    pdb.metadata.namespace,
    name,
    (live) => {
      if (!live) throw errors.notFound({ group: 'policy', resource: 'poddisruptionbudgets' }, name);
      if (live.metadata.resourceVersion !== rv) throw errors.staleUpdate({ group: 'policy', resource: 'poddisruptionbudgets' }, name);
      return { ...structuredClone(live), status: st };
    },
    { subresource: 'status', writer: APISERVER_WRITER },
  );
}

/** Adds DisruptionTarget=True to the pod's status (unless a dry run), then deletes it with the preconditions. */
async function addConditionAndDelete(stores: EvictionStores, ns: string, name: string, opts: EvictionOptions, preconditions?: { uid?: string; resourceVersion?: string }): Promise<void> {
  let pre = preconditions;
  if (!opts.dryRun) {
    const gr = { group: '', resource: 'Pod' };
    const { obj } = await stores.pods.update(
      ns,
      name,
      (live) => {
        if (!live) throw errors.notFound({ group: '', resource: 'pods' }, name);
        if (pre?.uid && pre.uid !== live.metadata.uid) {
          throw errors.conflict(gr, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${live.metadata.uid}). The object might have been deleted and then recreated`);
        }
        if (pre?.resourceVersion && pre.resourceVersion !== live.metadata.resourceVersion) {
          throw errors.conflict(
            gr,
            name,
            `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${live.metadata.resourceVersion}). The object might have been modified`,
          );
        }
        const next = structuredClone(live);
        const status: Obj = (next.status ??= {});
        const conds: Obj[] = Array.isArray(status.conditions) ? status.conditions : [];
        const cond = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
        const i = conds.findIndex((c) => c?.type === 'DisruptionTarget');
        const now = rfc3339(opts.now?.() ?? new Date());
        if (i < 0) conds.push({ ...cond, lastProbeTime: null, lastTransitionTime: now });
        else conds[i] = { ...conds[i], ...cond, lastTransitionTime: conds[i].status === 'True' ? conds[i].lastTransitionTime : now };
        status.conditions = conds;
        return next;
      },
      { subresource: 'status', writer: APISERVER_WRITER },
    );
    // the condition write moved the version: the precondition follows it
    if (pre?.resourceVersion) pre = { ...pre, resourceVersion: obj.metadata.resourceVersion };
  }
  await stores.pods.delete(ns, name, { dryRun: opts.dryRun, preconditions: pre, writer: APISERVER_WRITER });
}

/** Evicts a pod; returns the Status to answer with (201 Success, or the 500 of several budgets), or throws the refusal. */
export async function evictPod(stores: EvictionStores, ns: string, name: string, opts: EvictionOptions): Promise<Obj> {
  const rvUnset = !opts.preconditions?.resourceVersion;
  let pod: Obj = {};
  let deleted = false;
  await retryOnConflict(async () => {
    pod = await stores.pods.get(ns, name);
    if (!canIgnoreBudget(pod)) return;
    const pre = shouldEnforceResourceVersion(pod) && rvUnset ? { ...opts.preconditions, resourceVersion: pod.metadata.resourceVersion } : opts.preconditions;
    await addConditionAndDelete(stores, ns, name, opts, pre);
    deleted = true;
  }, rvUnset);
  if (deleted) return EVICTION_SUCCESS;

  const budgets = stores.budgets ? matchingBudgets((await stores.budgets.list(ns, {})).items, pod) : [];
  if (budgets.length > 1) {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    };
  }
  let pinToVersion = false;
  const pdb = budgets[0];
  if (pdb) {
    const st: Obj = pdb.status ?? {};
    const unhealthyAnyway = pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || ((st.currentHealthy ?? 0) >= (st.desiredHealthy ?? 0) && (st.desiredHealthy ?? 0) > 0);
    if (!isPodReady(pod) && unhealthyAnyway) pinToVersion = true;
    else {
      let current = pdb;
      let refresh = false;
      await retryOnConflict(async () => {
        if (refresh) current = await stores.budgets!.get(ns, pdb.metadata.name);
        refresh = true;
        await checkAndDecrement(stores, current, name, opts);
      }, true);
    }
  }
  const pre = pinToVersion ? { ...opts.preconditions, resourceVersion: pod.metadata.resourceVersion } : opts.preconditions;
  try {
    await addConditionAndDelete(stores, ns, name, opts, pre);
  } catch (err) {
    if (isConflict(err) && pinToVersion && rvUnset) throw stillProcessing(pdb.metadata.name);
    throw err;
  }
  return EVICTION_SUCCESS;
}
