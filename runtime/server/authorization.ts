// Builds the server's authorization from its options: the chain of
// --authorization-mode (default Node,RBAC) or of the --authorization-config
// file, the state the Node and RBAC modes decide from (the node graph and the
// RBAC index, created here and kept current by the built-ins), and the
// services of RBAC's escalation check (the chain decides escalate and bind;
// the writer's rules are RBAC's own when RBAC is on, as upstream whatever the
// other modes, else what the modes list). Flag and file problems are
// AuthorizationModeErrors with upstream's texts.

import type { Authorizer, RuleResolver } from '../authz/authorizer.ts';
import { MODE_NODE, MODE_RBAC, buildAuthorization, effectiveModes, validateModeFiles, validateModes, type BuiltAuthorization, type WebhookFlags } from '../authz/modes.ts';
import { NodeGraph } from '../authz/node/graph.ts';
import { rbacMode } from '../authz/rbac/authorizer.ts';
import { RbacIndex } from '../authz/rbac/index.ts';
import type { WritePolicyServices } from '../registry/policy/index.ts';
import { roleRulesReader } from '../registry/policy/rbac.ts';
import type { ApiIndex } from '../registry/served.ts';

export interface AuthorizationOptions {
  /** --authorization-mode, in order (runtime/authz/modes.ts); unset: Node,RBAC. */
  authorizationMode?: string[];
  /** --authorization-policy-file (ABAC). */
  authorizationPolicyFile?: string;
  /** --authorization-webhook-* (Webhook; only the flags given). */
  authorizationWebhook?: WebhookFlags;
  /** --authorization-config: the chain from this file instead of the modes. */
  authorizationConfig?: string;
  /** What a request may do (tests and embedders): asked after system:masters instead of the modes. */
  authorizer?: Authorizer;
  /** The users' rules for escalation checks (tests and embedders; default: RBAC's when RBAC is on, else the modes'). */
  ruleResolver?: RuleResolver;
}

export interface ServerAuthorization {
  built: BuiltAuthorization;
  /** The Node mode's graph, to be loaded from the stores before the server listens. */
  nodeGraph?: NodeGraph;
  /** The RBAC mode's index, kept current by the built-ins once the bootstrap policy is reconciled. */
  rbacIndex?: RbacIndex;
  writePolicy: WritePolicyServices;
}

/** The checks of the flags alone, before anything is opened. */
export function validateAuthorizationOptions(o: AuthorizationOptions): void {
  validateModes(o.authorizationMode ?? []);
  if (!o.authorizer) validateModeFiles(o.authorizationMode ?? [], authorizationFiles(o));
}

export function buildServerAuthorization(o: AuthorizationOptions, api: ApiIndex, log: (msg: string) => void): ServerAuthorization {
  // the modes that need state kept by watches (with a configuration file, whichever of the two it
  // names may come and go on reload, so both are kept)
  const stateful = o.authorizer ? [] : o.authorizationConfig ? [MODE_NODE, MODE_RBAC] : effectiveModes(o.authorizationMode ?? []);
  const nodeGraph = stateful.includes(MODE_NODE) ? new NodeGraph() : undefined;
  const rbacIndex = stateful.includes(MODE_RBAC) ? new RbacIndex() : undefined;
  const built = buildAuthorization(o.authorizationMode ?? [], { log, nodeGraph, rbac: rbacIndex, ...authorizationFiles(o) }, o.authorizer);
  const escalationRules = o.ruleResolver ?? (rbacIndex ? rbacMode(rbacIndex).ruleResolver : built.ruleResolver);
  return { built, nodeGraph, rbacIndex, writePolicy: { authorizer: built.authorizer, ruleResolver: escalationRules, roleRules: roleRulesReader(api) } };
}

/** The files and flags of the authorization modes, as buildAuthorization takes them. */
function authorizationFiles(o: AuthorizationOptions) {
  return { policyFile: o.authorizationPolicyFile, webhook: o.authorizationWebhook, authorizationConfig: o.authorizationConfig };
}
