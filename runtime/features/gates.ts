// Kubernetes 1.31's feature gates as kube-apiserver knows them: each gate's
// stage (ALPHA, BETA, GA, DEPRECATED), its default, and whether it is locked
// to that default, as component-base's featuregate holds them at 1.31
// (k8s.io/apiserver, k8s.io/apiextensions-apiserver and k8s.io/kubernetes
// feature lists). `honoured` says what a gate changes in this server; the
// other gates are accepted by name and stage, and change nothing here
// (their behaviour is not implemented, or is always the gate's default).

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface GateSpec {
  stage: Stage;
  default: boolean;
  /** Setting it to the other value fails start-up. */
  locked?: true;
  /** What the gate changes in this server, when it changes anything. */
  honoured?: string;
}

const alpha = (honoured?: string): GateSpec => ({ stage: 'ALPHA', default: false, ...(honoured ? { honoured } : {}) });
const beta = (on: boolean, honoured?: string): GateSpec => ({ stage: 'BETA', default: on, ...(honoured ? { honoured } : {}) });
const ga = (honoured?: string): GateSpec => ({ stage: 'GA', default: true, locked: true, ...(honoured ? { honoured } : {}) });

/** The gates, by name (1.31). */
export const GATES: Readonly<Record<string, GateSpec>> = {
  // honoured here
  WatchList: alpha('watches with sendInitialEvents (off: 422, as upstream)'),
  CustomResourceFieldSelectors: beta(true, "field selectors on a CRD version's selectableFields (off: they are ignored)"),
  StructuredAuthenticationConfiguration: beta(true, '--authentication-config (off: a start-up error)'),
  StructuredAuthorizationConfiguration: beta(true, '--authorization-config (off: a start-up error)'),
  ValidatingAdmissionPolicy: ga('ValidatingAdmissionPolicy and its bindings are enforced'),
  AdmissionWebhookMatchConditions: ga("webhooks' matchConditions"),
  AggregatedDiscoveryEndpoint: ga('aggregated discovery (apidiscovery.k8s.io/v2)'),
  APIListChunking: ga('limit and continue on lists'),
  RemainingItemCount: ga('remainingItemCount in list metadata'),
  WatchBookmark: ga('allowWatchBookmarks'),
  EfficientWatchResumption: ga('watches resume from the watch cache'),
  ServerSideApply: ga('apply patches'),
  ServerSideFieldValidation: ga('fieldValidation'),
  ZeroLimitedNominalConcurrencyShares: ga(),
  // accepted, no behaviour of their own here
  AnonymousAuthConfigurableEndpoints: alpha(),
  AuthorizeNodeWithSelectors: alpha(),
  AuthorizeWithSelectors: alpha(),
  APIServingWithRoutine: alpha(),
  CoordinatedLeaderElection: alpha(),
  StorageVersionAPI: alpha(),
  UnknownVersionInteroperabilityProxy: alpha(),
  HPAScaleToZero: alpha(),
  APIResponseCompression: beta(true),
  APIServerIdentity: beta(true),
  APIServerTracing: beta(true),
  ConcurrentWatchObjectDecode: beta(false),
  ConsistentListFromCache: beta(true),
  CRDValidationRatcheting: beta(true),
  OpenAPIEnums: beta(true),
  ResilientWatchCacheInitialization: beta(true),
  RetryGenerateName: beta(true),
  SeparateCacheWatchRPC: beta(true),
  StorageVersionHash: beta(true),
  StrictCostEnforcementForVAP: beta(false),
  StrictCostEnforcementForWebhooks: beta(false),
  UnauthenticatedHTTP2DOSMitigation: beta(true),
  WatchCacheInitializationPostStartHook: beta(false),
  WatchFromStorageWithoutResourceVersion: beta(false),
  MultiCIDRServiceAllocator: beta(false),
  ServiceAccountTokenJTI: beta(true),
  ServiceAccountTokenNodeBinding: beta(true),
  ServiceAccountTokenNodeBindingValidation: beta(true),
  ServiceAccountTokenPodNodeInfo: beta(true),
  StorageNamespaceIndex: beta(true),
  LegacyServiceAccountTokenCleanUp: ga(),
  PDBUnhealthyPodEvictionPolicy: ga(),
  PodDisruptionConditions: ga(),
  KMSv1: { stage: 'DEPRECATED', default: false },
  DisableKubeletCSRAdmissionValidation: { stage: 'DEPRECATED', default: false },
};
