// What the registry's write pipeline calls around the strategy: the hooks
// of one write (field ownership, the two halves of admission, the
// resource's write policy), the
// identities of in-process writers, and the services with which the store
// builds those hooks itself when the server writes (built-ins, the
// namespace controller, the garbage collector), so that what the server
// stores is defaulted, schema-checked, admitted and carries managedFields
// like what a client stores.

import { GROUP_AUTHENTICATED, GROUP_MASTERS, GROUP_SERVICE_ACCOUNTS, NS_SYSTEM, SERVICE_ACCOUNT_GROUP_PREFIX, SERVICE_ACCOUNT_USER_PREFIX } from '../api/k8s-names.ts';
import type { UserInfo } from '../auth/user.ts';
import type { FeatureGates } from '../features/feature-gates.ts';
import type { Obj } from '../storage/interface.ts';
import type { ManagedFieldsHook, ManagedResource } from './managed-fields.ts';
import type { ObjectCheckServices } from './object-checks.ts';
import { type WritePolicyServices, writePolicyFor } from './policy/index.ts';
import type { CustomResourceState } from './strategies/custom-resource.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * Upstream's admission ReinvocationContext: the chain runs its mutating
 * half a second time when a plugin (a mutating webhook) asked for it;
 * plugins keep per-request state in `values` by their name.
 */
export interface ReinvocationContext {
  isReinvoke: boolean;
  shouldReinvoke: boolean;
  values: Map<string, unknown>;
}

/** What admission is told about a write. */
export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  version: string;
  kind: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  object: Obj | null;
  oldObject: Obj | null;
  /** Set by the chain for its mutating half (see ReinvocationContext). */
  reinvocation?: ReinvocationContext;
  dryRun: boolean;
  user: UserInfo;
  /** The request's warnings (sent as Warning headers); absent for in-process writes. */
  warnings?: string[];
  /** Audit annotations plugins add (webhooks' `<webhook>/<key>`), kept for the audit log; created by the first plugin that adds one unless the writer passes a record. */
  auditAnnotations?: Record<string, string>;
  /** The operation's options as the client sent them (CreateOptions, UpdateOptions, DeleteOptions, a connect's options); absent: built from dryRun. */
  options?: Obj;
  /** The request's deadline (ms since the epoch): admission webhooks' calls end by it, and admission refuses a write past it; absent: none. */
  deadline?: number;
}

/** The admission chain as the pipeline calls it: its mutating half, then (later) its validating half. */
export interface AdmissionStage {
  readonly size: number;
  admit(attrs: AdmissionAttributes): Promise<void>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

/**
 * The request's stages that wrap the strategy in a write, each called at its
 * place in the pipeline (see RegistryStore.create() and update()). `old` is
 * null when the write creates the object.
 */
export interface WriteHooks {
  /** Records the writer's field ownership (metadata.managedFields) on the object as sent. */
  manageFields?(obj: Obj, old: Obj | null): void;
  /** Mutating admission: may change the object in place; what it sets is prepared and validated after it. */
  admit?(obj: Obj, old: Obj | null): void | Promise<void>;
  /**
   * The resource's write policy (RBAC's escalation prevention, see
   * policy/): after mutating admission, before the strategy; refuses by
   * throwing.
   */
  checkPolicy?(obj: Obj, old: Obj | null): Promise<void>;
  /** Validating admission: sees the final object and refuses by throwing. */
  validate?(obj: Obj, old: Obj | null): void | Promise<void>;
  /**
   * Admission of a delete, both halves (upstream's delete validation): the
   * object being deleted is oldObject, object is null; throwing refuses the
   * delete. Called with the live object each time the delete reads it.
   */
  admitDelete?(old: Obj): Promise<void>;
}

/** An in-process writer: the user admission sees and the field manager its writes record. */
export interface Writer {
  user: UserInfo;
  manager: string;
}

const serviceAccount = (name: string): UserInfo => ({
  name: `${SERVICE_ACCOUNT_USER_PREFIX}${NS_SYSTEM}:${name}`,
  groups: [GROUP_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_GROUP_PREFIX + NS_SYSTEM, GROUP_AUTHENTICATED],
});

/** The API server itself (start-up objects, its own Service and Endpoints, local APIServices). */
export const APISERVER_WRITER: Writer = {
  user: { name: 'system:apiserver', groups: [GROUP_MASTERS, GROUP_AUTHENTICATED] },
  manager: 'kube-apiserver',
};

/** The namespace controller (kube-controller-manager's, with its service account). */
export const NAMESPACE_CONTROLLER_WRITER: Writer = { user: serviceAccount('namespace-controller'), manager: 'kube-controller-manager' };

/** The service-account controller (every namespace's `default` ServiceAccount; kube-controller-manager's). */
export const SERVICE_ACCOUNT_CONTROLLER_WRITER: Writer = { user: serviceAccount('service-account-controller'), manager: 'kube-controller-manager' };

/** kube-controller-manager itself: its leader election Lease (its own credentials, as upstream). */
export const CONTROLLER_MANAGER_WRITER: Writer = { user: { name: 'system:kube-controller-manager', groups: [GROUP_AUTHENTICATED] }, manager: 'kube-controller-manager' };

/** The service-account tokens controller (kube-controller-manager's own root credentials, as upstream). */
export const TOKENS_CONTROLLER_WRITER: Writer = { user: { name: 'system:kube-controller-manager', groups: [GROUP_AUTHENTICATED] }, manager: 'kube-controller-manager' };

/** The bootstrap signer controller (kube-controller-manager's bootstrapsigner). */
export const BOOTSTRAP_SIGNER_WRITER: Writer = { user: serviceAccount('bootstrap-signer'), manager: 'kube-controller-manager' };

/** The token cleaner controller (kube-controller-manager's tokencleaner, with its service account). */
export const TOKEN_CLEANER_WRITER: Writer = { user: serviceAccount('token-cleaner'), manager: 'kube-controller-manager' };

/** The root CA publisher (kube-controller-manager's root-ca-cert-publisher, with its service account). */
export const ROOT_CA_PUBLISHER_WRITER: Writer = { user: serviceAccount('root-ca-cert-publisher'), manager: 'kube-controller-manager' };

/** The ClusterRole aggregation controller (kube-controller-manager's clusterrole-aggregation, with its service account and its field manager). */
export const CLUSTER_ROLE_AGGREGATION_WRITER: Writer = { user: serviceAccount('clusterrole-aggregation-controller'), manager: 'clusterrole-aggregation-controller' };

/** The garbage collector (kube-controller-manager's, with its service account). */
export const GARBAGE_COLLECTOR_WRITER: Writer = { user: serviceAccount('generic-garbage-collector'), manager: 'kube-controller-manager' };

/** The resource quota controller (kube-controller-manager's resourcequota, with its service account). */
export const RESOURCE_QUOTA_CONTROLLER_WRITER: Writer = { user: serviceAccount('resourcequota-controller'), manager: 'kube-controller-manager' };

/** The CSR signing controller (kube-controller-manager's csrsigning, with its service account). */
export const CERTIFICATE_CONTROLLER_WRITER: Writer = { user: serviceAccount('certificate-controller'), manager: 'kube-controller-manager' };

/** What the store needs to run the whole pipeline for an in-process writer. */
export interface WriteServices extends ObjectCheckServices {
  managedFields: ManagedFieldsHook;
  admission: AdmissionStage;
  /** What write policies ask (the authorizer, RBAC rules); absent: no policy runs. */
  writePolicy?: WritePolicyServices;
  /** The state of the CustomResourceDefinitions served while running (terminating, compiled rules). */
  customResources?: CustomResourceState;
  /** The server's feature gates, for the strategies' rules a gate changes; absent: the defaults. */
  features?: FeatureGates;
}

/** Who writes and where: what the hooks of one write need besides the object. */
export interface WriteTarget {
  user: UserInfo;
  manager: string;
  namespace: string;
  name: string;
  subresource?: string;
  dryRun: boolean;
  /** Where admission adds warnings for the client (the request's list). */
  warnings?: string[];
  /** Where admission adds audit annotations (the request's record). */
  auditAnnotations?: Record<string, string>;
  /** The request's deadline (ms since the epoch); absent: none. */
  deadline?: number;
  /**
   * The request's options as the client sent them, without kind and
   * apiVersion (dryRun, fieldManager, fieldValidation; a delete's
   * DeleteOptions); absent: built from dryRun, as for an in-process write.
   */
  options?: Obj;
}

const OPTIONS_KIND: Partial<Record<Operation, string>> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

/**
 * The options object admission is told for an operation (upstream passes
 * the handler's CreateOptions, UpdateOptions or DeleteOptions; a patch's
 * are its UpdateOptions, or CreateOptions when it creates).
 */
export function operationOptions(operation: Operation, fields: Obj | undefined, dryRun: boolean): Obj | undefined {
  const kind = OPTIONS_KIND[operation];
  if (!kind) return undefined;
  return { kind, apiVersion: 'meta.k8s.io/v1', ...(fields ?? (dryRun ? { dryRun: ['All'] } : {})) };
}

/** What admission sees of one write of an object of def (old: the live object, null when it is created). */
function admissionAttrs(def: ManagedResource['def'], target: WriteTarget, obj: Obj, old: Obj | null, op?: Operation): AdmissionAttributes {
  // a write without a live object creates it, whatever the verb: a PUT or apply that creates is a CREATE to admission
  const operation = op ?? (old ? 'UPDATE' : 'CREATE');
  return {
    operation,
    group: def.group,
    version: def.version,
    kind: def.kind,
    resource: def.resource,
    subresource: target.subresource ?? '',
    namespace: target.namespace,
    name: obj.metadata?.name ?? target.name,
    object: obj,
    oldObject: old,
    dryRun: target.dryRun,
    user: target.user,
    warnings: target.warnings,
    auditAnnotations: target.auditAnnotations,
    deadline: target.deadline,
    options: operationOptions(operation, target.options, target.dryRun),
  };
}

/**
 * The hooks of one write of `res` (the version the object is written in):
 * field ownership for the target's manager, and admission as its user
 * (for a delete too).
 * Used by request handlers and, with a Writer, for in-process writes.
 */
export function pipelineHooks(services: Pick<WriteServices, 'managedFields' | 'admission' | 'writePolicy'>, res: ManagedResource, target: WriteTarget): WriteHooks {
  const { def } = res;
  const hooks: WriteHooks = {
    manageFields(obj, old) {
      const withFields = services.managedFields.update(res, old, obj, target.manager, target.subresource);
      if (withFields.metadata?.managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = withFields.metadata.managedFields;
    },
  };
  const gr = { group: def.group, resource: def.resource };
  const policy = services.writePolicy && !target.subresource ? writePolicyFor(gr) : undefined;
  if (policy) {
    const ctx = { services: services.writePolicy!, gr, user: target.user, namespace: target.namespace, name: target.name };
    hooks.checkPolicy = (obj, old) => policy(ctx, obj, old);
  }
  if (services.admission.size) {
    hooks.admit = (obj, old) => services.admission.admit(admissionAttrs(def, target, obj, old));
    hooks.validate = (obj, old) => services.admission.validate(admissionAttrs(def, target, obj, old));
    hooks.admitDelete = async (old) => {
      // the target's name: empty for a deletecollection, as upstream's collection attributes
      const a: AdmissionAttributes = { ...admissionAttrs(def, target, old, old, 'DELETE'), name: target.name, object: null, oldObject: structuredClone(old) };
      await services.admission.admit(a);
      await services.admission.validate(a);
    };
  }
  return hooks;
}
