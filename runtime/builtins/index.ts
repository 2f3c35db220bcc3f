// Built-in behaviour that is not one resource's strategy: objects created at
// start-up (initial namespaces, the `kubernetes` Service, Endpoints and
// EndpointSlice, local APIServices, extension-apiserver-authentication, the RBAC bootstrap policy, the system PriorityClasses), in-process
// controllers (namespace deletion, every namespace's default ServiceAccount and kube-root-ca.crt, ClusterRole aggregation, CSR signing, quota usage), allocators wired into the strategies
// that need them, and admission plugins (those that authorize approving and signing CSRs ask
// the server's authorizer). startServer() calls installBuiltins() once after it
// listens and before /readyz passes, and startControllers() once readiness
// holds and whenever this replica wins the controller-manager Lease
// (leader-election.ts): the controllers are kube-controller-manager's
// upstream, which kube-apiserver's readiness does not wait for; the caller
// stops them. stop() ends the rest.

import type { AdmissionChain } from '../admission/chain.ts';
import { nextTurn } from '../api/next-turn.ts';
import type { Discovery } from '../http/discovery.ts';
import { namespaceLifecyclePlugin } from '../admission/plugins/namespace-lifecycle.ts';
import { serviceAccountPlugin } from '../admission/plugins/service-account.ts';
import { nodeRestrictionPlugin } from '../admission/plugins/node-restriction.ts';
import { certificateRequestPlugin } from '../admission/plugins/certificates.ts';
import { certificateApprovalPlugin, certificateSigningPlugin } from '../admission/plugins/certificate-signers.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import { nodeRestrictionSources } from './node-restriction.ts';
import { priorityClassSource, priorityPlugin } from '../admission/plugins/priority.ts';
import { podSecurityPlugin, podSecuritySources } from '../admission/plugins/pod-security/plugin.ts';
import { taintNodesByConditionPlugin } from '../admission/plugins/taint-nodes-by-condition.ts';
import { defaultTolerationSecondsPlugin } from '../admission/plugins/default-toleration-seconds.ts';
import { defaultStorageClassPlugin } from '../admission/plugins/default-storage-class.ts';
import { storageObjectInUseProtectionPlugin } from '../admission/plugins/storage-object-in-use-protection.ts';
import { persistentVolumeClaimResizePlugin } from '../admission/plugins/persistent-volume-claim-resize.ts';
import { runtimeClassPlugin } from '../admission/plugins/runtime-class.ts';
import { defaultIngressClassPlugin } from '../admission/plugins/default-ingress-class.ts';
import { clusterObjects } from '../admission/plugins/cluster-objects.ts';
import { startAdmissionPolicies } from './admission-policies.ts';
import { bootstrapPriorityClasses } from './priority-classes.ts';
import { serviceAccountSource } from './default-serviceaccounts.ts';
import { startNamespaceController } from '../controllers/namespace.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Storage } from '../storage/interface.ts';
import { installLocalAPIServices } from './apiservices.ts';
import { bootstrapNamespaces } from './bootstrap.ts';
import { installKubernetesEndpoints, type EndpointReconcilerOptions } from './kubernetes-endpoints.ts';
import { installComponentStatus } from './component-status.ts';
import { publishExtensionAuthentication } from './extension-authentication.ts';
import { startServiceAccountController } from './default-serviceaccounts.ts';
import { startClusterRoleAggregation } from './clusterrole-aggregation.ts';
import { startBootstrapTokenControllers } from './bootstrap-token-controllers.ts';
import { enabledControllers } from '../config/controllers.ts';
import { defaultAdmissionPlugins } from '../config/admission-plugins.ts';
import type { TokenIssuer } from '../auth/serviceaccount/issuer.ts';
import { startTokenSecretsController } from './token-secrets-controller.ts';
import { startRootCAPublisher } from './root-ca-publisher.ts';
import { startCSRSigning, type CSRSigningOptions } from './csr-signing.ts';
import { startEventTTL } from './event-ttl.ts';
import { migrateOldEventKeys, OLD_EVENTS_ROOT } from './event-key-migration.ts';
import { quotaAccess, startResourceQuota } from './resource-quota.ts';
import { resourceQuotaPlugin } from '../admission/plugins/resource-quota/plugin.ts';
import { limitRangerPlugin, limitRangeSource } from '../admission/plugins/limit-ranger/plugin.ts';
import { installServiceAllocation } from './services.ts';
import type { RbacIndex } from '../authz/rbac/index.ts';
import { reconcileBootstrapPolicy, startRbacIndex } from './rbac.ts';
import { startCrdController } from './crds.ts';
import { startCrdAPIServices } from './crd-apiservices.ts';
import type { CrdServingDeps } from '../controllers/crd/serving.ts';
import { startAdmissionWebhooks } from './admission-webhooks.ts';
import type { WebhookObserver } from '../admission/webhook/observe.ts';
import { type AdmissionPluginConfigs, readAdmissionPluginConfigs } from './admission-configs.ts';
import { NO_ADMISSION_CONFIG } from '../config/admission-config.ts';

export interface BuiltinContext {
  api: ApiIndex;
  admission: AdmissionChain;
  /** The server's authorization chain, for the admission plugins that ask it (approve and sign on CSR signers). */
  authorizer: Authorizer;
  /** The server's discovery documents, ordered by the stored APIServices. */
  discovery: Discovery;
  /** Server flags that built-ins read (service ranges; secure-port, bind-address, advertise-address, the default toleration seconds when given). */
  flags: Record<string, string | number | boolean | undefined>;
  /** Signs legacy service-account tokens (the tokens controller), with the CA it publishes in ca.crt. */
  serviceAccountTokens?: { issuer: TokenIssuer; rootCA: string };
  /** --controllers: the in-process controllers to run (config/controllers.ts). */
  controllers?: Set<string>;
  /** The extension-apiserver-authentication ConfigMap's data (undefined over plain HTTP: no client certificates). */
  extensionAuthentication?: Record<string, string>;
  /** The RBAC mode's index, kept current from watches once the bootstrap policy is reconciled (only when the mode is on). */
  rbacIndex?: RbacIndex;
  /** Where start-up notes go (bootstrap roles left alone). */
  log?: (msg: string) => void;
  /** The CA bundle clients verify the server with, published as every namespace's kube-root-ca.crt (undefined over plain HTTP). */
  rootCA?: string;
  /** Where the Service allocation ranges are kept (the object layer, no watch cache); absent: in memory only. */
  rangeStorage?: Storage;
  /** The object layer without caches that holds a key prefix (the start-up migration of keys earlier versions wrote); absent: none runs. */
  baseStorageFor?: (prefix: string) => Storage;
  /** The CA the CSR signers sign with (undefined over plain HTTP: no client certificates). */
  csrSigning?: CSRSigningOptions;
  /** --event-ttl (ms): Events are deleted this long after their last write. */
  eventTTLMs?: number;
  /** The upstream admission plugins to run (config/admission-plugins.ts; default: its default set). */
  admissionPlugins?: ReadonlySet<string>;
  /** Told of every admission webhook call (the webhook metrics). */
  webhookObserver?: WebhookObserver;
  /** The plugins' configurations from --admission-control-config-file (admission-configs.ts; default: none). */
  admissionConfigs?: AdmissionPluginConfigs;
  /** The generated OpenAPI documents (the admission policies' type checking reads the built-in kinds' schemas there). */
  openapiDir?: string;
  /** What serving CustomResourceDefinitions takes (absent: stored CRDs are not served). */
  crds?: Omit<CrdServingDeps, 'api'>;
  /** How the `kubernetes` Endpoints are kept (--endpoint-reconciler-type and the master leases). */
  endpointReconciler: EndpointReconcilerOptions;
}

export interface InstalledBuiltins {
  /**
   * Starts the in-process controllers (namespace deletion, service accounts and their tokens, kube-root-ca.crt, CSR signing, bootstrap tokens,
   * Event TTL, quota usage): kube-controller-manager's, run while this server leads (leader-election.ts); the caller stops them, and may start them
   * again later (undefined once stop() began).
   */
  startControllers(): Promise<StartedControllers | undefined>;
  stop(): Promise<void>;
}

export async function installBuiltins(ctx: BuiltinContext): Promise<InstalledBuiltins> {
  const controllers = ctx.controllers ?? enabledControllers(undefined);
  // in upstream's order; the CSR requester fields are the strategy's upstream, so that plugin always runs
  const on = ctx.admissionPlugins ?? defaultAdmissionPlugins();
  if (on.has('NamespaceLifecycle')) ctx.admission.add(namespaceLifecyclePlugin(ctx.api));
  if (on.has('LimitRanger')) ctx.admission.add(limitRangerPlugin(limitRangeSource(ctx.api)));
  if (on.has('ServiceAccount')) ctx.admission.add(serviceAccountPlugin(serviceAccountSource(ctx.api, controllers.has('serviceaccount'))));
  if (on.has('NodeRestriction')) ctx.admission.add(nodeRestrictionPlugin(nodeRestrictionSources(ctx.api)));
  if (on.has('TaintNodesByCondition')) ctx.admission.add(taintNodesByConditionPlugin());
  const configs = ctx.admissionConfigs ?? readAdmissionPluginConfigs(NO_ADMISSION_CONFIG, on);
  if (on.has('PodSecurity')) ctx.admission.add(podSecurityPlugin(podSecuritySources(ctx.api), { defaults: configs.podSecurity.defaults, exemptions: configs.podSecurity.exemptions }));
  if (on.has('Priority')) ctx.admission.add(priorityPlugin(priorityClassSource(ctx.api)));
  if (on.has('DefaultTolerationSeconds')) ctx.admission.add(defaultTolerationSecondsPlugin(tolerationSeconds(ctx.flags)));
  if (on.has('DefaultStorageClass')) ctx.admission.add(defaultStorageClassPlugin(clusterObjects(ctx.api, 'storage.k8s.io', 'v1', 'storageclasses')));
  if (on.has('StorageObjectInUseProtection')) ctx.admission.add(storageObjectInUseProtectionPlugin());
  if (on.has('PersistentVolumeClaimResize')) ctx.admission.add(persistentVolumeClaimResizePlugin(clusterObjects(ctx.api, 'storage.k8s.io', 'v1', 'storageclasses')));
  if (on.has('RuntimeClass')) ctx.admission.add(runtimeClassPlugin(clusterObjects(ctx.api, 'node.k8s.io', 'v1', 'runtimeclasses')));
  if (on.has('CertificateApproval')) ctx.admission.add(certificateApprovalPlugin(ctx.authorizer));
  if (on.has('CertificateSigning')) ctx.admission.add(certificateSigningPlugin(ctx.authorizer));
  ctx.admission.add(certificateRequestPlugin({ subjectRestriction: on.has('CertificateSubjectRestriction') }));
  if (on.has('DefaultIngressClass')) ctx.admission.add(defaultIngressClassPlugin(clusterObjects(ctx.api, 'networking.k8s.io', 'v1', 'ingressclasses')));
  const webhooks =
    on.has('MutatingAdmissionWebhook') || on.has('ValidatingAdmissionWebhook') ? startAdmissionWebhooks(ctx.api, ctx.authorizer, ctx.log, configs.webhooks, ctx.webhookObserver) : undefined;
  if (on.has('MutatingAdmissionWebhook')) ctx.admission.add(webhooks!.mutating);
  const policies = on.has('ValidatingAdmissionPolicy') ? startAdmissionPolicies(ctx.api, ctx.authorizer, ctx.openapiDir, ctx.crds?.schemas) : undefined;
  if (policies) ctx.admission.add(policies.plugin);
  if (on.has('ValidatingAdmissionWebhook')) ctx.admission.add(webhooks!.validating);
  const quotas = on.has('ResourceQuota') ? quotaAccess(ctx.api) : undefined;
  if (quotas) ctx.admission.add(resourceQuotaPlugin(quotas, Date.now, configs.resourceQuota.limitedResources));
  // what earlier versions stored under keys no store reads now is moved before anything is served
  if (ctx.baseStorageFor) await migrateOldEventKeys(ctx.api, ctx.baseStorageFor(OLD_EVENTS_ROOT), ctx.log);
  await bootstrapNamespaces(ctx.api);
  await bootstrapPriorityClasses(ctx.api);
  for (const note of await reconcileBootstrapPolicy(ctx.api)) ctx.log?.(note);
  const rbacIndex = ctx.rbacIndex ? await startRbacIndex(ctx.api, ctx.rbacIndex) : undefined;
  const services = await installServiceAllocation(ctx.api, ctx.flags, ctx.rangeStorage);
  const apiServices = await installLocalAPIServices(ctx.api, ctx.discovery);
  const endpoints = await installKubernetesEndpoints(ctx.api, ctx.flags, ctx.endpointReconciler);
  if (ctx.extensionAuthentication) await publishExtensionAuthentication(ctx.api, ctx.extensionAuthentication);
  // ClusterRole aggregation fills the rules of admin, edit and view, which authorization reads: it runs before readiness
  const aggregation = controllers.has('clusterrole-aggregation') ? startClusterRoleAggregation(ctx.api) : undefined;
  // stored CRDs are served before the server reports ready
  const crdController = ctx.crds ? await startCrdController(ctx.api, ctx.crds, ctx.log) : undefined;
  const crdSchemas = ctx.crds?.schemas;
  const crdAPIServices = crdSchemas ? startCrdAPIServices(ctx.api, () => new Set(crdSchemas.publishedOf(ctx.api.served.map((s) => s.def)).map((p) => `${p.def.group}/${p.def.version}`))) : undefined;
  await crdAPIServices?.synced();
  await webhooks?.synced();
  let running = true;
  installComponentStatus(ctx.api, () => running);
  return {
    async startControllers() {
      return running ? await startControllers(ctx, controllers) : undefined;
    },
    async stop() {
      running = false;
      await services?.stop();
      await apiServices?.stop();
      await endpoints.stop();
      await aggregation?.stop();
      await rbacIndex?.stop();
      crdAPIServices?.stop();
      await crdController?.stop();
      await quotas?.stop();
      await policies?.stop();
      await webhooks?.stop();
    },
  };
}

/** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds, when given. */
function tolerationSeconds(flags: BuiltinContext['flags']): { notReadySeconds?: number; unreachableSeconds?: number } {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return { notReadySeconds: n(flags['default-not-ready-toleration-seconds']), unreachableSeconds: n(flags['default-unreachable-toleration-seconds']) };
}

export interface StartedControllers {
  stop(): Promise<void>;
}

/**
 * The controllers that readiness does not wait for (kube-controller-manager's upstream), as --controllers names them;
 * each starts on a turn of the event loop of its own (its first lists read storage), so requests arriving meanwhile,
 * the first readiness probes among them, are not held behind them all.
 */
async function startControllers(ctx: BuiltinContext, controllers: Set<string>): Promise<StartedControllers> {
  const nsController = controllers.has('namespace') ? startNamespaceController(ctx.api) : undefined;
  await nextTurn();
  const saController = controllers.has('serviceaccount') ? startServiceAccountController(ctx.api) : undefined;
  await nextTurn();
  const tokenSecrets =
    controllers.has('serviceaccount-token') && ctx.serviceAccountTokens ? startTokenSecretsController(ctx.api, ctx.serviceAccountTokens.issuer, ctx.serviceAccountTokens.rootCA) : undefined;
  await nextTurn();
  const rootCAPublisher = controllers.has('root-ca-cert-publisher') && ctx.rootCA ? startRootCAPublisher(ctx.api, ctx.rootCA) : undefined;
  await nextTurn();
  const csrSigning = controllers.has('csrsigning') && ctx.csrSigning ? startCSRSigning(ctx.api, ctx.csrSigning) : undefined;
  await nextTurn();
  const tokenControllers = startBootstrapTokenControllers(ctx.api, { cleaner: controllers.has('tokencleaner'), signer: controllers.has('bootstrapsigner') });
  await nextTurn();
  const eventTTL = startEventTTL(ctx.api, { ttlMs: ctx.eventTTLMs });
  await nextTurn();
  const resourceQuota = controllers.has('resourcequota') ? startResourceQuota(ctx.api) : undefined;
  return {
    async stop() {
      await nsController?.stop();
      await saController?.stop();
      await tokenControllers?.stop();
      await tokenSecrets?.stop();
      await rootCAPublisher?.stop();
      await csrSigning?.stop();
      await eventTTL.stop();
      await resourceQuota?.stop();
    },
  };
}
