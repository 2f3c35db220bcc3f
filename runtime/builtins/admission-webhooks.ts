// The sources of the admission webhook plugins: a watch of the stored
// MutatingWebhookConfigurations and one of the ValidatingWebhookConfigurations
// feed the plugins' webhook lists (a configuration takes effect as soon as
// it is stored), and webhook `service` references are resolved through the
// Service's EndpointSlices to a pod address (no ClusterIP routing here).
// The plugins are made at once and are usable before the first lists
// arrive (then with no webhooks); synced() resolves when both have.

import type { AdmissionPlugin } from '../admission/chain.ts';
import { apiMatchServices } from '../admission/matching/index.ts';
import { WebhookConfigs } from '../admission/webhook/configs.ts';
import { mutatingWebhookPlugin, validatingWebhookPlugin } from '../admission/webhook/plugin.ts';
import type { WebhookObserver } from '../admission/webhook/observe.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import { servedServiceLookup } from '../registry/served-service-lookup.ts';
import type { ApiIndex } from '../registry/served.ts';
import { serviceResolver } from '../webhook-client/service-resolver.ts';
import type { CredentialsFor } from '../webhook-client/auth-info.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

export interface AdmissionWebhooks {
  mutating: AdmissionPlugin;
  validating: AdmissionPlugin;
  /** Resolves once both configuration kinds were listed. */
  synced(): Promise<void>;
  stop(): Promise<void>;
}

const GROUP = 'admissionregistration.k8s.io';

/** The credentials each webhook plugin presents (from its kubeConfigFile). */
export interface WebhookCredentialSources {
  mutating?: CredentialsFor;
  validating?: CredentialsFor;
}

export function startAdmissionWebhooks(
  api: ApiIndex,
  authorizer: Authorizer | undefined,
  log?: (msg: string) => void,
  credentials: WebhookCredentialSources = {},
  observer?: WebhookObserver,
): AdmissionWebhooks {
  const resolveService = serviceResolver(servedServiceLookup(api));
  const services = { match: apiMatchServices(api), authorizer, log, observer };
  const loops: WatchLoop[] = [];
  const syncs: Promise<void>[] = [];
  const source = (resource: string, creds?: CredentialsFor): WebhookConfigs => {
    const configs = new WebhookConfigs({ resolveService, credentials: creds });
    const res = api.lookup(GROUP, 'v1', resource);
    if (!res) return configs;
    let first: () => void = () => {};
    syncs.push(new Promise<void>((r) => (first = r)));
    loops.push(
      startWatchLoop(res.store, '', {
        async resync(items) {
          await configs.resync(items);
          first();
        },
        event: (ev) => configs.event(ev),
      }),
    );
    return configs;
  };
  const mutating = source('mutatingwebhookconfigurations', credentials.mutating);
  const validating = source('validatingwebhookconfigurations', credentials.validating);
  return {
    mutating: mutatingWebhookPlugin(mutating, services),
    validating: validatingWebhookPlugin(validating, services),
    synced: async () => {
      await Promise.all(syncs);
    },
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
      mutating.close();
      validating.close();
    },
  };
}
