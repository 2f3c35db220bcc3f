// The AdmissionConfiguration file: accepted apiVersions, YAML and JSON,
// inline and file (relative to the file's directory) plugin entries, and
// the start-up errors of a missing file, bad YAML, a wrong kind or version.

import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdmissionConfigError, NO_ADMISSION_CONFIG, decodeTyped, loadAdmissionConfig } from './admission-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'admission-config-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('loadAdmissionConfig', () => {
  it('gives no configuration without a file', () => {
    expect(loadAdmissionConfig(undefined)).toBe(NO_ADMISSION_CONFIG);
    expect(loadAdmissionConfig('').configFor('PodSecurity')).toBeUndefined();
  });

  it.each(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1'])('reads inline configurations (%s, YAML)', (apiVersion) => {
    const p = write(
      `inline-${apiVersion.replace(/\W/g, '_')}.yaml`,
      `apiVersion: ${apiVersion}\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: x/v1\n    kind: Y\n    a: 1\n`,
    );
    const c = loadAdmissionConfig(p);
    expect(c.configFor('PodSecurity')).toEqual({ value: { apiVersion: 'x/v1', kind: 'Y', a: 1 }, source: 'inline' });
    expect(c.configFor('ResourceQuota')).toBeUndefined();
  });

  it('reads a JSON file and a plugin file by a path relative to its directory; the first entry of a name wins', () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    write('sub/psa.yaml', 'apiVersion: x/v1\nkind: Y\nb: 2\n');
    const p = write(
      'sub/admission.json',
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'AdmissionConfiguration',
        plugins: [
          { name: 'PodSecurity', path: 'psa.yaml' },
          { name: 'PodSecurity', configuration: { kind: 'other' } },
        ],
      }),
    );
    expect(loadAdmissionConfig(p).configFor('PodSecurity')).toEqual({ value: { apiVersion: 'x/v1', kind: 'Y', b: 2 }, source: join(dir, 'sub', 'psa.yaml') });
  });

  const rows: [string, string, string][] = [
    ['wrong kind', 'apiVersion: apiserver.config.k8s.io/v1\nkind: Other\n', 'failed to read plugin config: no kind "Other" is registered for version "apiserver.config.k8s.io/v1"'],
    [
      'unknown version',
      'apiVersion: apiserver.config.k8s.io/v9\nkind: AdmissionConfiguration\n',
      'failed to read plugin config: no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v9"',
    ],
    ['no kind', 'apiVersion: apiserver.config.k8s.io/v1\n', "failed to read plugin config: Object 'Kind' is missing in 'apiVersion: apiserver.config.k8s.io/v1'"],
    ['bad YAML', 'a: [\n', 'failed to read plugin config: error converting YAML to JSON: yaml:'],
  ];
  it.each(rows)('refuses a file with a %s', (_, text, message) => {
    const p = write(`bad-${_.replace(/\W/g, '_')}.yaml`, text);
    expect(() => loadAdmissionConfig(p)).toThrow(AdmissionConfigError);
    expect(() => loadAdmissionConfig(p)).toThrow(message);
  });

  it('refuses a missing file with upstream text', () => {
    const p = join(dir, 'missing.yaml');
    expect(() => loadAdmissionConfig(p)).toThrow(`failed to read plugin config: unable to read admission control configuration from "${p}" [open ${p}: no such file or directory]`);
  });

  it('refuses a plugin file that cannot be read when the plugin asks for it', () => {
    const p = write('missing-plugin.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: nope.yaml\n');
    const c = loadAdmissionConfig(p);
    expect(() => c.configFor('ResourceQuota')).toThrow(`couldn't open admission plugin configuration ${join(dir, 'nope.yaml')}: open ${join(dir, 'nope.yaml')}: no such file or directory`);
  });
});

describe('decodeTyped', () => {
  const kinds = [{ apiVersion: 'a/v1', kind: 'K' }];
  it('accepts a listed kind and refuses others', () => {
    expect(decodeTyped({ apiVersion: 'a/v1', kind: 'K', x: 1 }, kinds)).toEqual({ apiVersion: 'a/v1', kind: 'K', x: 1 });
    expect(() => decodeTyped({ apiVersion: 'a/v2', kind: 'K' }, kinds)).toThrow('no kind "K" is registered for version "a/v2"');
    expect(() => decodeTyped({ apiVersion: 'a/v1' }, kinds)).toThrow(`Object 'Kind' is missing in '{"apiVersion":"a/v1"}'`);
    expect(() => decodeTyped({ kind: 'K' }, kinds)).toThrow(`Object 'apiVersion' is missing in '{"kind":"K"}'`);
  });
});
