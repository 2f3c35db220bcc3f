// The scale subresource as a registry store: an autoscaling/v1 Scale view
// of a workload (Deployment, ReplicaSet, StatefulSet, or a custom resource
// with CRD scale paths) over the workload's own store. get builds the
// Scale; update changes only the replica count of the parent object, with
// the Scale's resourceVersion as a precondition, through the parent store's
// write pipeline (subresource `scale`).

import { applyPatch, type PatchKind } from '../patch/index.ts';
import { patchErrorToApi } from './patching.ts';
import type { MergeSchema, ResourceDef } from '../../generated/api-types.ts';
import { errors } from '../api/errors.ts';
import { fieldErrors } from '../api/field-errors.ts';
import { labelSelectorString } from '../api/label-selector.ts';
import type { Obj } from '../storage/interface.ts';
import { valueAt } from './object-checks.ts';
import type { PipelineOptions, RegistryStore } from './store.ts';

/** Where a resource keeps its replica counts and selector (dotted paths, as in a CRD's scale subresource). */
export interface ScalePaths {
  spec: string;
  status: string;
  selector?: string;
  /** spec.selector is a plain label map (ReplicationController), not a LabelSelector. */
  selectorIsMap?: boolean;
}

/** The scale paths of a resource: its CRD declaration, else spec.replicas and status.replicas. */
export function scalePathsOf(def: ResourceDef): ScalePaths {
  const sub = def.subresources.find((s) => s.name === 'scale');
  if (sub?.scale) return { spec: sub.scale.specReplicasPath, status: sub.scale.statusReplicasPath, selector: sub.scale.labelSelectorPath };
  return { spec: '.spec.replicas', status: '.status.replicas', selectorIsMap: def.group === '' && def.kind === 'ReplicationController' };
}

function setAt(obj: Obj, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Obj;
  cur[parts[parts.length - 1]] = value;
}

/** The Scale view of a workload object. */
export function toScale(obj: Obj, paths: ScalePaths): Obj {
  const md = obj.metadata;
  const sel = obj.spec?.selector;
  const selector = paths.selector ? String(valueAt(obj, paths.selector.replace(/^\./, '')) ?? '') : labelSelectorString(paths.selectorIsMap ? { matchLabels: sel ?? {} } : sel);
  const status: Obj = { replicas: Number(valueAt(obj, paths.status.replace(/^\./, '')) ?? 0) };
  if (selector) status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: md.name,
      namespace: md.namespace,
      uid: md.uid,
      resourceVersion: md.resourceVersion,
      creationTimestamp: md.creationTimestamp,
    },
    spec: { replicas: Number(valueAt(obj, paths.spec.replace(/^\./, '')) ?? 0) },
    status,
  };
}

/** The schema name of autoscaling/v1 Scale in the merge schema (strategic patches of a Scale). */
const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';

export class ScaleStore {
  constructor(
    readonly parent: RegistryStore,
    readonly paths: ScalePaths,
    /** The apiVersion (group/version) the paths are of: the workload is read in it (a CRD's versions may differ). */
    readonly version?: string,
  ) {}

  /** The Scale of a workload. */
  async get(namespace: string, name: string): Promise<Obj> {
    return toScale(await this.inVersion(await this.parent.get(namespace, name)), this.paths);
  }

  /** The workload in the version of the paths. */
  inVersion(obj: Obj): Obj | Promise<Obj> {
    return this.version ? this.parent.inVersion(obj, this.version) : obj;
  }

  /**
   * Writes the replica count of the Scale that `wanted` makes from the live
   * Scale (a PUT body or a patched Scale) into the workload; returns the
   * stored workload. A resourceVersion in the Scale is a precondition (409);
   * a replica count that is not a non-negative integer is 422.
   */
  async update(namespace: string, name: string, wanted: (liveScale: Obj) => Obj, opts: PipelineOptions = {}): Promise<Obj> {
    const { parent, paths } = this;
    const { obj } = await parent.update(
      namespace,
      name,
      (live) => {
        if (!live) throw errors.notFound(parent.gr, name);
        const scale = wanted(toScale(live, paths));
        const rv = scale.metadata?.resourceVersion;
        if (rv && rv !== live.metadata.resourceVersion) throw errors.conflict(parent.gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
        const replicas = scale.spec?.replicas;
        if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)) {
          throw errors.invalid({ group: 'autoscaling', kind: 'Scale' }, name, [fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
        }
        const next = structuredClone(live);
        setAt(next, paths.spec, replicas ?? 0);
        return next;
      },
      { ...opts, subresource: 'scale', ...(this.version ? { version: this.version } : {}) },
    );
    return obj;
  }

  /**
   * A JSON, merge or strategic merge patch of the Scale: applied to the live
   * Scale inside the write (so a conflict retry patches the new one), then
   * written as update() writes a Scale. Returns the stored workload.
   */
  async patch(namespace: string, name: string, type: Exclude<PatchKind, 'apply'>, patch: unknown, mergeSchema: MergeSchema, opts: PipelineOptions = {}): Promise<Obj> {
    return this.update(
      namespace,
      name,
      (liveScale) => {
        try {
          return applyPatch(type, liveScale as never, patch, { schema: mergeSchema, typeName: SCALE_SCHEMA }) as Obj;
        } catch (err) {
          throw patchErrorToApi(err);
        }
      },
      opts,
    );
  }
}
