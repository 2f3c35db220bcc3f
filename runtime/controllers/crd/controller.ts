// The CustomResourceDefinition controller, in-process and writing through
// the registry like every other writer (as the API server): for each CRD
// it works out the accepted names and the NamesAccepted condition
// (names.ts), serves the CRD's versions once its names are accepted
// (serving.ts) and then sets Established; for a CRD being deleted it runs
// the customresourcecleanup.apiextensions.k8s.io finalizer: Terminating
// conditions, every custom resource deleted, the finalizer dropped, the
// resource no longer served. One queue, one CRD at a time (upstream's
// naming controller runs one worker for the same reason: names are
// reserved across CRDs).

import { errors } from '../../api/errors.ts';
import { findCrdCondition, setCrdCondition, CRD_CLEANUP_FINALIZER, type CrdCondition } from '../../registry/strategies/apiextensions/lifecycle.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { RegistryStore } from '../../registry/store.ts';
import { APISERVER_WRITER } from '../../registry/write-services.ts';
import type { Obj } from '../../storage/interface.ts';
import { calculateNames, ESTABLISHED, namesInUse, waitsForNames } from './names.ts';
import type { CrdServing } from './serving.ts';

export const CRD_GROUP = 'apiextensions.k8s.io';

export interface CrdControllerOptions {
  /** Delay before looking again at a CRD whose custom resources are not all gone (ms, default 500). */
  retryMs?: number;
  log?: (msg: string) => void;
}

const notFound = (err: unknown) => (err as { code?: number }).code === 404;
const gone = () => errors.notFound({ group: CRD_GROUP, resource: 'customresourcedefinitions' }, '');

function sameNames(a: Obj | undefined, b: Obj | undefined): boolean {
  const norm = (n: Obj | undefined) => JSON.stringify([n?.plural ?? '', n?.singular ?? '', n?.kind ?? '', n?.listKind ?? '', n?.shortNames ?? [], n?.categories ?? []]);
  return norm(a) === norm(b);
}

function sameCondition(a: CrdCondition | undefined, b: CrdCondition): boolean {
  return !!a && a.status === b.status && a.reason === b.reason && a.message === b.message;
}

export class CrdController {
  private readonly queue = new Set<string>();
  private readonly groups = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private working: Promise<void> | undefined;
  private stopped = false;
  private readonly retryMs: number;

  constructor(
    private readonly api: ApiIndex,
    private readonly serving: CrdServing,
    private readonly opts: CrdControllerOptions = {},
  ) {
    this.retryMs = opts.retryMs ?? 500;
  }

  private get store(): RegistryStore {
    const res = this.api.lookup(CRD_GROUP, 'v1', 'customresourcedefinitions');
    if (!res) throw new Error('customresourcedefinitions are not served');
    return res.store;
  }

  /** Looks at a CRD (by name) soon. */
  enqueue(name: string): void {
    if (this.stopped) return;
    this.queue.add(name);
    this.working ??= this.drain().finally(() => {
      this.working = undefined;
      if (this.queue.size && !this.stopped) this.enqueue([...this.queue][0]);
    });
  }

  /** Resolves once the queue is empty (retries scheduled for later excepted). */
  async idle(): Promise<void> {
    while (this.working) await this.working;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.working;
  }

  private async drain(): Promise<void> {
    while (this.queue.size && !this.stopped) {
      const name = [...this.queue][0];
      this.queue.delete(name);
      try {
        await this.sync(name);
      } catch (err) {
        this.opts.log?.(`customresourcedefinition ${name}: ${(err as Error).message}`);
        this.later(name);
      }
    }
  }

  private later(name: string): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.enqueue(name);
    }, this.retryMs);
    this.timers.add(t);
  }

  /** The other CRDs of a group that wait for a name, looked at again when a name may have been freed. */
  private async requeueGroup(group: string, except: string): Promise<void> {
    const { items } = await this.store.list('', {});
    for (const crd of items) if (crd.spec?.group === group && crd.metadata.name !== except && waitsForNames(crd)) this.enqueue(crd.metadata.name);
  }

  private async sync(name: string): Promise<void> {
    let crd: Obj;
    try {
      crd = await this.store.get('', name);
    } catch (err) {
      if (!notFound(err)) throw err;
      this.serving.stop(name);
      const group = this.groups.get(name);
      this.groups.delete(name);
      if (group !== undefined) await this.requeueGroup(group, name);
      return;
    }
    this.groups.set(name, crd.spec?.group);
    if (crd.metadata.deletionTimestamp) {
      if ((crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) await this.cleanUp(crd);
      return;
    }
    if (!sameNames(crd.spec?.names, crd.status?.acceptedNames)) crd = await this.acceptNames(crd);
    if (findCrdCondition(crd, 'NamesAccepted')?.status !== 'True' && !this.serving.isServed(name)) return;
    if (!crd.status?.acceptedNames?.plural) return;
    try {
      await this.serving.serve(crd);
    } catch (err) {
      // a CRD that cannot be translated stays unserved (its validation refuses such CRDs at write)
      this.opts.log?.(`customresourcedefinition ${name} is not served: ${(err as Error).message}`);
      return;
    }
    if (findCrdCondition(crd, 'Established')?.status !== 'True') {
      await this.updateStatus(name, (live) => setCrdCondition(live, ESTABLISHED));
    }
  }

  private async acceptNames(crd: Obj): Promise<Obj> {
    const { items } = await this.store.list('', {});
    const group: string = crd.spec?.group ?? '';
    const builtins = this.api.served.filter((s) => s.def.group === group && !s.def.custom).map((s) => s.def);
    const { acceptedNames, namesAccepted, established } = calculateNames(crd, namesInUse(items, group, builtins));
    if (sameNames(crd.status?.acceptedNames, acceptedNames) && sameCondition(findCrdCondition(crd, 'NamesAccepted'), namesAccepted)) return crd;
    const updated = await this.updateStatus(crd.metadata.name, (live) => {
      live.status ??= {};
      live.status.acceptedNames = acceptedNames;
      setCrdCondition(live, namesAccepted);
      setCrdCondition(live, established);
    });
    // a name this CRD held may be free now
    await this.requeueGroup(group, crd.metadata.name);
    return updated;
  }

  private async updateStatus(name: string, change: (live: Obj) => void): Promise<Obj> {
    const { obj } = await this.store.update(
      '',
      name,
      (live) => {
        if (!live) throw gone();
        const next = structuredClone(live);
        change(next);
        return next;
      },
      { subresource: 'status', writer: APISERVER_WRITER },
    );
    return obj;
  }

  /** The finalizer: delete every custom resource, then drop the finalizer and stop serving. */
  private async cleanUp(crd: Obj): Promise<void> {
    const name: string = crd.metadata.name;
    this.serving.terminating(name);
    const inProgress: CrdCondition = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
    if (!sameCondition(findCrdCondition(crd, 'Terminating'), inProgress)) await this.updateStatus(name, (live) => setCrdCondition(live, inProgress));
    const at = this.serving.servedAt(name);
    const served = at && this.api.served.find((s) => s.def.group === at.group && s.def.resource === at.resource);
    let done: CrdCondition;
    if (served) {
      done = await this.deleteInstances(served.store);
      if (done.status === 'True') {
        await this.updateStatus(name, (live) => setCrdCondition(live, done));
        this.later(name);
        return;
      }
    } else {
      done = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    }
    await this.updateStatus(name, (live) => setCrdCondition(live, done));
    this.serving.stop(name);
    await this.store.update(
      '',
      name,
      (live) => {
        if (!live) throw gone();
        const next = structuredClone(live);
        next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f: string) => f !== CRD_CLEANUP_FINALIZER);
        return next;
      },
      { writer: APISERVER_WRITER },
    );
  }

  /** Deletes every object of the resource; the condition says whether any is left (True: look again later). */
  private async deleteInstances(store: RegistryStore): Promise<CrdCondition> {
    let items: Obj[];
    try {
      ({ items } = await store.list('', {}));
    } catch (err) {
      return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not list instances: ${(err as Error).message}` };
    }
    const failures: string[] = [];
    for (const item of items) {
      if (item.metadata.deletionTimestamp) continue;
      try {
        await store.delete(item.metadata.namespace ?? '', item.metadata.name, { writer: APISERVER_WRITER });
      } catch (err) {
        if (!notFound(err)) failures.push((err as Error).message);
      }
    }
    if (failures.length)
      return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not issue all deletes: ${failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`}` };
    const left = await store.list('', {});
    if (left.items.length)
      return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' };
    return { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
  }
}
