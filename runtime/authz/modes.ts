// --authorization-mode: which modes exist, their order, and the chain they
// build. Every chain starts with system:masters (allowed everything, as
// upstream), then asks the modes in the order given (Node,RBAC when none is
// given); their rule resolvers
// answer SelfSubjectRulesReview together. A mode is built from the sources the
// server hands in (AuthorizationSources): the policy file for ABAC, the
// webhook's kubeconfig, the RBAC index and the Node graph kept current by
// watches. Flag errors carry upstream's texts.

import { GROUP_MASTERS } from '../api/k8s-names.ts';
import { FileError } from '../auth/file-error.ts';
import { loadWebhookKubeconfig } from '../auth/webhook/kubeconfig.ts';
import { abacMode } from './abac/authorizer.ts';
import { loadPolicyFile } from './abac/policy.ts';
import { AuthorizationConfigError } from './config/load.ts';
import { ReloadableAuthorization } from './config/reloadable.ts';
import { DEFAULT_AUTHORIZED_TTL_MS, DEFAULT_UNAUTHORIZED_TTL_MS, WebhookAuthorizer, webhookMode } from './webhook/authorizer.ts';
import { parseSarVersion } from './webhook/subject-access-review.ts';
import type { RbacIndex } from './rbac/index.ts';
import { rbacMode } from './rbac/authorizer.ts';
import { type AuthorizationMode, type Authorizer, type RuleResolver, alwaysAllowMode, alwaysDenyMode, cannotListRules, privilegedGroups, unionAuthorizer, unionRuleResolver } from './authorizer.ts';
import { nodeMode } from './node/authorizer.ts';
import { NodeGraph } from './node/graph.ts';
import { serverLogger } from '../logging/logger.ts';

export const MODE_ALWAYS_ALLOW = 'AlwaysAllow';
export const MODE_ALWAYS_DENY = 'AlwaysDeny';
export const MODE_ABAC = 'ABAC';
export const MODE_WEBHOOK = 'Webhook';
export const MODE_RBAC = 'RBAC';
export const MODE_NODE = 'Node';

/** Every mode kube-apiserver knows, in its order. */
export const AUTHORIZATION_MODES = [MODE_ALWAYS_ALLOW, MODE_ALWAYS_DENY, MODE_ABAC, MODE_WEBHOOK, MODE_RBAC, MODE_NODE] as const;

/**
 * The modes without --authorization-mode (and without --authorization-config):
 * Node then RBAC, as kubeadm and k3s clusters run (kube-apiserver's own flag
 * default is AlwaysAllow).
 */
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = [MODE_NODE, MODE_RBAC];

/** The modes a server runs with for --authorization-mode as given (empty: the default). */
export function effectiveModes(modes: string[]): string[] {
  return modes.length ? modes : [...DEFAULT_AUTHORIZATION_MODES];
}

/** What the modes are built from; each mode reads its own part. */
export interface AuthorizationSources {
  /** The server's log (reload notes, webhook failures). */
  log?: (msg: string) => void;
  /** Node: the graph of what pods bound to each node reference, kept current by a built-in (an empty one when not given). */
  nodeGraph?: NodeGraph;
  /** RBAC: the Roles, ClusterRoles and their bindings, kept current by watches (runtime/builtins/rbac.ts). */
  rbac?: RbacIndex;
  /** --authorization-policy-file (ABAC). */
  policyFile?: string;
  /** The --authorization-webhook-* flags given (Webhook); absent when none was. */
  webhook?: WebhookFlags;
  /** --authorization-config: the chain comes from this file instead of --authorization-mode. */
  authorizationConfig?: string;
  /** The clock of the webhooks' answer caches (default Date.now). */
  now?: () => number;
}

export interface WebhookFlags {
  /** --authorization-webhook-config-file */
  configFile?: string;
  /** --authorization-webhook-version (default v1beta1, as kube-apiserver 1.31) */
  version?: string;
  /** --authorization-webhook-cache-authorized-ttl (default 5m) */
  authorizedTtlMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl (default 30s) */
  unauthorizedTtlMs?: number;
}

/** A mode with resources to release when the server stops. */
type ClosableMode = AuthorizationMode & { close?: () => void };

type ModeBuilder = (src: AuthorizationSources) => ClosableMode;

/** The modes this build has, by name. */
const BUILDERS: Record<string, ModeBuilder> = {
  [MODE_ALWAYS_ALLOW]: () => alwaysAllowMode,
  [MODE_ALWAYS_DENY]: () => alwaysDenyMode,
  [MODE_NODE]: (src) => nodeMode(src.nodeGraph ?? new NodeGraph()),
  [MODE_RBAC]: (src) => {
    if (!src.rbac) throw new AuthorizationModeError('authorization-mode "RBAC" needs the RBAC index');
    return rbacMode(src.rbac);
  },
  [MODE_ABAC]: (src) => {
    if (!src.policyFile) throw new AuthorizationModeError("authorization-mode ABAC's authorization policy file not passed");
    try {
      const file = loadPolicyFile(src.policyFile);
      for (const w of file.warnings) src.log?.(w);
      return abacMode(file.policies);
    } catch (err) {
      if (err instanceof FileError) throw new AuthorizationModeError(err.message);
      throw err;
    }
  },
  [MODE_WEBHOOK]: (src) => {
    const flags = src.webhook ?? {};
    if (!flags.configFile) throw new AuthorizationModeError("authorization-mode Webhook's authorization config file not passed");
    let version;
    try {
      version = parseSarVersion(flags.version ?? 'v1beta1');
    } catch (err) {
      throw new AuthorizationModeError((err as Error).message);
    }
    let client;
    try {
      client = loadWebhookKubeconfig(flags.configFile);
    } catch (err) {
      if (err instanceof FileError) throw new AuthorizationModeError(err.message);
      throw err;
    }
    const w = new WebhookAuthorizer({
      client,
      version,
      authorizedTtlMs: flags.authorizedTtlMs ?? DEFAULT_AUTHORIZED_TTL_MS,
      unauthorizedTtlMs: flags.unauthorizedTtlMs ?? DEFAULT_UNAUTHORIZED_TTL_MS,
      now: src.now ?? Date.now,
      log: src.log,
    });
    return { ...webhookMode(w), close: () => w.close() };
  },
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

/** Upstream's checks of which files and flags go with which modes (texts as upstream). */
export function validateModeFiles(modes: string[], src: Pick<AuthorizationSources, 'policyFile' | 'webhook' | 'authorizationConfig'>): void {
  if (src.authorizationConfig) {
    if (modes.length || src.webhook) throw new AuthorizationModeError('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
    return;
  }
  if (modes.includes(MODE_ABAC) && !src.policyFile) throw new AuthorizationModeError("authorization-mode ABAC's authorization policy file not passed");
  if (modes.includes(MODE_WEBHOOK) && !src.webhook?.configFile) throw new AuthorizationModeError("authorization-mode Webhook's authorization config file not passed");
  if (src.policyFile && !modes.includes(MODE_ABAC)) throw new AuthorizationModeError('cannot specify --authorization-policy-file without mode ABAC');
  if (src.webhook?.configFile && !modes.includes(MODE_WEBHOOK)) throw new AuthorizationModeError('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (src.webhook?.version !== undefined) {
    try {
      parseSarVersion(src.webhook.version);
    } catch (err) {
      throw new AuthorizationModeError((err as Error).message);
    }
  }
}

export interface BuiltAuthorization {
  /** The chain: system:masters, then the modes in order. */
  authorizer: Authorizer;
  /** The modes' rules together (SelfSubjectRulesReview). */
  ruleResolver: RuleResolver;
  modes: string[];
  /** Releases what the modes hold (webhook connections, the configuration file's watch). */
  close(): void;
}

/**
 * The chain for --authorization-mode (empty: Node,RBAC), or for the
 * --authorization-config file when `sources.authorizationConfig` is set
 * (then reloaded on change until close()). Throws AuthorizationModeError for
 * bad flags or files. `custom` (tests and embedders) replaces the modes; its
 * rules cannot be listed.
 */
export function buildAuthorization(modes: string[], sources: AuthorizationSources = {}, custom?: Authorizer): BuiltAuthorization {
  validateModes(modes);
  const first = privilegedGroups([GROUP_MASTERS]);
  if (!custom) validateModeFiles(modes, sources);
  if (sources.authorizationConfig && !custom) return buildFromConfigFile(sources.authorizationConfig, first, sources);
  const built: ClosableMode[] = custom ? [{ name: 'Custom', authorizer: custom, ruleResolver: cannotListRules }] : [];
  try {
    if (!custom) for (const m of effectiveModes(modes)) built.push(BUILDERS[m](sources));
  } catch (err) {
    for (const b of built) b.close?.();
    throw err;
  }
  return {
    authorizer: unionAuthorizer([first, ...built.map((b) => b.authorizer)]),
    ruleResolver: unionRuleResolver(built.map((b) => b.ruleResolver)),
    modes: built.map((b) => b.name),
    close: () => built.forEach((b) => b.close?.()),
  };
}

function buildFromConfigFile(file: string, first: Authorizer, sources: AuthorizationSources): BuiltAuthorization {
  const built: ClosableMode[] = [];
  const log = sources.log ?? ((msg: string) => serverLogger().warning(msg));
  let chain: ReloadableAuthorization;
  try {
    chain = new ReloadableAuthorization({
      file,
      first,
      now: sources.now ?? Date.now,
      log,
      buildMode: (type) => {
        if (type === MODE_WEBHOOK || !BUILDERS[type]) throw new AuthorizationConfigError(`unknown authorization mode ${type} specified`);
        const m = BUILDERS[type](sources);
        built.push(m);
        return m;
      },
    });
  } catch (err) {
    for (const b of built) b.close?.();
    if (err instanceof AuthorizationConfigError || err instanceof FileError) throw new AuthorizationModeError(err.message);
    throw err;
  }
  chain.start();
  return {
    authorizer: chain,
    ruleResolver: chain,
    get modes() {
      return chain.modes;
    },
    close: () => {
      chain.close();
      built.forEach((b) => b.close?.());
    },
  };
}
