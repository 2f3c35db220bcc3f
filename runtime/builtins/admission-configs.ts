// The admission plugins' configurations from --admission-control-config-file,
// read and checked at start (before anything is stored or served) for the
// plugins that are enabled, as upstream initializes only those: a bad
// configuration stops start-up with upstream's `couldn't init admission
// plugin "<name>": ...`.

import { type AdmissionConfigProvider, AdmissionConfigError, pluginInitError } from '../config/admission-config.ts';
import { type PodSecurityConfig, parsePodSecurityConfig } from '../admission/plugins/pod-security/config.ts';
import { type ResourceQuotaConfig, parseResourceQuotaConfig } from '../admission/plugins/resource-quota/config.ts';
import { parseWebhookAdmissionConfig } from '../admission/webhook/plugin-config.ts';
import type { WebhookCredentialSources } from './admission-webhooks.ts';

export interface AdmissionPluginConfigs {
  podSecurity: PodSecurityConfig;
  resourceQuota: ResourceQuotaConfig;
  webhooks: WebhookCredentialSources;
}

function read<T>(provider: AdmissionConfigProvider, name: string, parse: (entry: ReturnType<AdmissionConfigProvider['configFor']>) => T): T {
  try {
    return parse(provider.configFor(name));
  } catch (err) {
    if (err instanceof AdmissionConfigError) throw err;
    throw pluginInitError(name, err);
  }
}

/** Each enabled plugin's configuration, decoded and validated; throws AdmissionConfigError. */
export function readAdmissionPluginConfigs(provider: AdmissionConfigProvider, enabled: ReadonlySet<string>): AdmissionPluginConfigs {
  return {
    podSecurity: enabled.has('PodSecurity') ? read(provider, 'PodSecurity', parsePodSecurityConfig) : parsePodSecurityConfig(undefined),
    resourceQuota: enabled.has('ResourceQuota') ? read(provider, 'ResourceQuota', parseResourceQuotaConfig) : parseResourceQuotaConfig(undefined),
    webhooks: {
      mutating: enabled.has('MutatingAdmissionWebhook') ? read(provider, 'MutatingAdmissionWebhook', parseWebhookAdmissionConfig) : undefined,
      validating: enabled.has('ValidatingAdmissionWebhook') ? read(provider, 'ValidatingAdmissionWebhook', parseWebhookAdmissionConfig) : undefined,
    },
  };
}
