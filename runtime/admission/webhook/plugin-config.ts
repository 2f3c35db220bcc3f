// The configuration of the MutatingAdmissionWebhook and
// ValidatingAdmissionWebhook plugins from the AdmissionConfiguration file:
// `WebhookAdmissionConfiguration` (apiserver.config.k8s.io/v1; the older
// v1alpha1 `WebhookAdmission`) whose `kubeConfigFile`, an absolute path,
// names the kubeconfig of the credentials presented to webhooks
// (webhook-client/auth-info.ts). Problems are Errors with upstream's texts.

import { type PluginConfiguration, decodeTyped } from '../../config/admission-config.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { type CredentialsFor, loadCredentialsKubeconfig } from '../../webhook-client/auth-info.ts';

export const WEBHOOK_ADMISSION_CONFIG_KINDS = [
  { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration' },
  { apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmission' },
  { apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmissionConfiguration' },
];

/** The credentials a webhook plugin presents; undefined without an entry (no credentials). */
export function parseWebhookAdmissionConfig(entry: PluginConfiguration | undefined): CredentialsFor | undefined {
  if (!entry) return undefined;
  const doc = decodeTyped(entry.value, WEBHOOK_ADMISSION_CONFIG_KINDS);
  const file = typeof doc.kubeConfigFile === 'string' ? doc.kubeConfigFile : '';
  if (!file.startsWith('/')) throw new Error(fieldErrors.invalid('kubeConfigFile', file, 'must be an absolute file path').toString());
  return loadCredentialsKubeconfig(file);
}
