// --enable-admission-plugins / --disable-admission-plugins: the resulting
// plugins in the server's order, and upstream's start-up errors.

import { describe, expect, it } from 'vitest';
import { AdmissionPluginsFlagError, enabledAdmissionPlugins } from './admission-plugins.ts';

const DEFAULT = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
];

describe('enabledAdmissionPlugins', () => {
  it.each([
    ['no flags: the default set', [], [], DEFAULT],
    ['disabling takes from it', [], ['Priority', 'NamespaceLifecycle'], DEFAULT.filter((n) => n !== 'Priority' && n !== 'NamespaceLifecycle')],
    ["the order is the server's, not the flag's", ['Priority', 'NodeRestriction'], ['ServiceAccount'], DEFAULT.filter((n) => n !== 'ServiceAccount')],
    ['disabling an upstream plugin not implemented here is accepted', [], ['AlwaysPullImages', 'NodeRestriction'], DEFAULT.filter((n) => n !== 'NodeRestriction')],
    ['everything off', [], DEFAULT, []],
  ] as [string, string[], string[], string[]][])('%s', (_, enable, disable, want) => {
    expect(enabledAdmissionPlugins(enable, disable)).toEqual(want);
  });

  it.each([
    [['Foo'], [], 'enable-admission-plugins plugin "Foo" is unknown'],
    [[], ['namespacelifecycle'], 'disable-admission-plugins plugin "namespacelifecycle" is unknown'],
    [['Priority', 'NodeRestriction'], ['NodeRestriction', 'Priority'], '[NodeRestriction Priority] in enable-admission-plugins and disable-admission-plugins overlapped'],
    [['AlwaysPullImages'], [], 'enable-admission-plugins plugin "AlwaysPullImages" is not implemented by this server'],
    [['Foo'], ['Bar'], '[enable-admission-plugins plugin "Foo" is unknown, disable-admission-plugins plugin "Bar" is unknown]'],
  ] as [string[], string[], string][])('enable %j, disable %j: %s', (enable, disable, message) => {
    expect(() => enabledAdmissionPlugins(enable, disable)).toThrow(new AdmissionPluginsFlagError(message));
  });
});
