// WebhookAdmissionConfiguration: the kinds accepted, kubeConfigFile must be
// absolute (upstream's text), and the kubeconfig is read.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWebhookAdmissionConfig } from './plugin-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'webhook-admission-'));
const kubeconfig = join(dir, 'kubeconfig.yaml');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nusers:\n- name: "*.svc"\n  user:\n    token: t\n');
const entry = (value: unknown) => ({ value, source: 'inline' });

describe('parseWebhookAdmissionConfig', () => {
  it('gives no credentials without an entry', () => {
    expect(parseWebhookAdmissionConfig(undefined)).toBeUndefined();
  });

  it.each([
    ['apiserver.config.k8s.io/v1', 'WebhookAdmissionConfiguration'],
    ['apiserver.config.k8s.io/v1alpha1', 'WebhookAdmission'],
  ])('reads the kubeconfig of %s %s', (apiVersion, kind) => {
    const creds = parseWebhookAdmissionConfig(entry({ apiVersion, kind, kubeConfigFile: kubeconfig }));
    expect(creds?.('a.b.svc:443')).toEqual({ token: 't' });
  });

  it('refuses a relative kubeConfigFile, a missing one and another kind', () => {
    const v1 = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration' };
    expect(() => parseWebhookAdmissionConfig(entry({ ...v1, kubeConfigFile: 'kubeconfig.yaml' }))).toThrow('kubeConfigFile: Invalid value: "kubeconfig.yaml": must be an absolute file path');
    expect(() => parseWebhookAdmissionConfig(entry({ ...v1, kubeConfigFile: join(dir, 'none') }))).toThrow(`open ${join(dir, 'none')}: no such file or directory`);
    expect(() => parseWebhookAdmissionConfig(entry({ ...v1, kind: 'Other' }))).toThrow('no kind "Other" is registered for version "apiserver.config.k8s.io/v1"');
  });
});
