// --authorization-mode: which modes exist, their order, and the chain they
// build. Every chain starts with system:masters (allowed everything, as
// upstream), then asks the modes in the order given; their rule resolvers
// answer SelfSubjectRulesReview together. A mode is built from the sources the
// server hands in (AuthorizationSources): the policy file for ABAC, the
// webhook's kubeconfig, the RBAC index and the Node graph kept current by
// watches. Flag errors carry upstream's texts.

import type { UserInfo } from '../auth/user.ts';
import { ANONYMOUS } from '../auth/user.ts';
import type { Attributes } from './attributes.ts';
import {
  type AuthorizationMode,
  type Authorizer,
  type RuleResolver,
  ALLOW,
  NO_OPINION,
  alwaysAllowMode,
  alwaysDenyMode,
  cannotListRules,
  privilegedGroups,
  unionAuthorizer,
  unionRuleResolver,
} from './authorizer.ts';
import { nodeMode } from './node/authorizer.ts';
import { NodeGraph } from './node/graph.ts';

export const MODE_ALWAYS_ALLOW = 'AlwaysAllow';
export const MODE_ALWAYS_DENY = 'AlwaysDeny';
export const MODE_ABAC = 'ABAC';
export const MODE_WEBHOOK = 'Webhook';
export const MODE_RBAC = 'RBAC';
export const MODE_NODE = 'Node';

/** Every mode kube-apiserver knows, in its order. */
export const AUTHORIZATION_MODES = [MODE_ALWAYS_ALLOW, MODE_ALWAYS_DENY, MODE_ABAC, MODE_WEBHOOK, MODE_RBAC, MODE_NODE] as const;

export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/** What the modes are built from; each mode reads its own part. */
export interface AuthorizationSources {
  /** The server's log (reload notes, webhook failures). */
  log?: (msg: string) => void;
  /** Node: the graph of what pods bound to each node reference, kept current by a built-in (an empty one when not given). */
  nodeGraph?: NodeGraph;
}

type ModeBuilder = (src: AuthorizationSources) => AuthorizationMode;

/** The modes this build has, by name. */
const BUILDERS: Record<string, ModeBuilder> = {
  [MODE_ALWAYS_ALLOW]: () => alwaysAllowMode,
  [MODE_ALWAYS_DENY]: () => alwaysDenyMode,
  [MODE_NODE]: (src) => nodeMode(src.nodeGraph ?? new NodeGraph()),
};

export class AuthorizationModeError extends Error {}

/** Checks --authorization-mode as upstream's options validation does; the messages are upstream's. */
export function validateModes(modes: string[]): void {
  const seen = new Set<string>();
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) throw new AuthorizationModeError(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (seen.has(m)) throw new AuthorizationModeError(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
    if (!BUILDERS[m]) throw new AuthorizationModeError(`authorization-mode ${JSON.stringify(m)} is not supported by this build yet`);
  }
}

export interface BuiltAuthorization {
  /** The chain: system:masters, then the modes in order. */
  authorizer: Authorizer;
  /** The modes' rules together (SelfSubjectRulesReview). */
  ruleResolver: RuleResolver;
  modes: string[];
}

/**
 * The default while RBAC is not built: authenticated users may do anything but
 * impersonate,
 * anonymous only read health, version, discovery and OpenAPI (what RBAC's
 * system:public-info-viewer and system:discovery give).
 */
export const authenticatedOnlyMode: AuthorizationMode = {
  name: 'AuthenticatedOnly',
  authorizer: {
    authorize(a: Attributes) {
      // impersonation stays with system:masters, as before the modes existed
      if (a.user.name !== ANONYMOUS.name) return a.verb === 'impersonate' ? NO_OPINION : ALLOW;
      if (!a.isResourceRequest && (a.verb === 'get' || a.verb === 'head') && publicInfoPath(a.path)) return ALLOW;
      return NO_OPINION;
    },
  },
  ruleResolver: {
    rulesFor: (u: UserInfo) =>
      u.name === ANONYMOUS.name
        ? { resourceRules: [], nonResourceRules: [], incomplete: true }
        : { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false },
  },
};

/** Paths the anonymous user may read by default: health, version, discovery and OpenAPI. */
export function publicInfoPath(path: string): boolean {
  if (['/healthz', '/livez', '/readyz', '/version', '/version/', '/api', '/apis', '/openapi'].includes(path)) return true;
  return /^\/(healthz|livez|readyz|api|apis|openapi)\//.test(path);
}

/**
 * The chain for --authorization-mode (empty: the default). Throws
 * AuthorizationModeError for a bad list. `custom` (tests and embedders)
 * replaces the modes; its rules cannot be listed.
 */
export function buildAuthorization(modes: string[], sources: AuthorizationSources = {}, custom?: Authorizer): BuiltAuthorization {
  validateModes(modes);
  const built = custom ? [{ name: 'Custom', authorizer: custom, ruleResolver: cannotListRules }] : modes.length ? modes.map((m) => BUILDERS[m](sources)) : [authenticatedOnlyMode];
  return {
    authorizer: unionAuthorizer([privilegedGroups([SYSTEM_PRIVILEGED_GROUP]), ...built.map((b) => b.authorizer)]),
    ruleResolver: unionRuleResolver(built.map((b) => b.ruleResolver)),
    modes: built.map((b) => b.name),
  };
}
