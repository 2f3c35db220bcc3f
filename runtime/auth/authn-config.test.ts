// Tests of the AuthenticationConfiguration file (anonymous section, strict decoding, upstream's validation), the flag conflict and the anonymous path rule.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_FLAG_CONFLICT, anonymousAllowed, effectiveAnonymous, loadAuthenticationConfiguration, parseAuthenticationConfiguration, type AnonymousConfig } from './authn-config.ts';
import { FileError } from './file-error.ts';

const HEAD = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n';

describe('parseAuthenticationConfiguration', () => {
  const ok: [string, string, unknown][] = [
    ['no anonymous section', HEAD, {}],
    ['an empty jwt list is fine', `${HEAD}jwt: []\n`, {}],
    ['anonymous enabled', `${HEAD}anonymous:\n  enabled: true\n`, { anonymous: { enabled: true, conditions: [] } }],
    ['anonymous disabled', `${HEAD}anonymous:\n  enabled: false\n`, { anonymous: { enabled: false, conditions: [] } }],
    [
      'anonymous with conditions',
      `${HEAD}anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n  - path: /readyz\n`,
      { anonymous: { enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] } },
    ],
    ['v1alpha1', 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AuthenticationConfiguration\nanonymous: {enabled: true}\n', { anonymous: { enabled: true, conditions: [] } }],
    [
      'JSON',
      '{"apiVersion":"apiserver.config.k8s.io/v1beta1","kind":"AuthenticationConfiguration","anonymous":{"enabled":true,"conditions":[{"path":"/healthz"}]}}',
      { anonymous: { enabled: true, conditions: [{ path: '/healthz' }] } },
    ],
  ];
  it.each(ok)('%s', (_name, text, want) => {
    expect(parseAuthenticationConfiguration('/etc/authn.yaml', text)).toEqual(want);
  });

  const P = 'failed to load authentication configuration from file "/etc/authn.yaml": ';
  const bad: [string, string, string][] = [
    ['an empty file', '  \n', 'empty config data'],
    ['not YAML', 'a: [', 'error converting YAML to JSON: '],
    ['duplicate keys', `${HEAD}kind: AuthenticationConfiguration\n`, 'error converting YAML to JSON: '],
    ['a list', '- a\n', "couldn't get version/kind; json parse error: cannot unmarshal array"],
    ['no kind', 'apiVersion: apiserver.config.k8s.io/v1beta1\n', "Object 'Kind' is missing"],
    ['no apiVersion', 'kind: AuthenticationConfiguration\n', "Object 'apiVersion' is missing"],
    ['another version', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n', 'no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io/v1"'],
    [
      'another kind',
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\n',
      'no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1"',
    ],
    [
      'unknown fields',
      `${HEAD}foo: 1\nanonymous:\n  enabled: true\n  bar: 2\n  conditions:\n  - path: /x\n    baz: 3\n`,
      'strict decoding error: unknown field "foo", unknown field "anonymous.bar", unknown field "anonymous.conditions[0].baz"',
    ],
    ['enabled not a bool', `${HEAD}anonymous:\n  enabled: "yes"\n`, 'json: cannot unmarshal string into Go struct field AnonymousAuthConfig.anonymous.enabled of type bool'],
    [
      'a path not a string',
      `${HEAD}anonymous:\n  enabled: true\n  conditions:\n  - path: 3\n`,
      'json: cannot unmarshal number into Go struct field AnonymousAuthCondition.anonymous.conditions.path of type string',
    ],
    [
      'conditions while disabled',
      `${HEAD}anonymous:\n  enabled: false\n  conditions:\n  - path: /livez\n`,
      'anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/livez"}}: enabled should be set to true when conditions are defined',
    ],
    [
      'conditions without enabled',
      `${HEAD}anonymous:\n  conditions:\n  - path: /a\n  - path: /b\n`,
      'anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/a"}, apiserver.AnonymousAuthCondition{Path:"/b"}}: enabled should be set to true when conditions are defined',
    ],
    ['JWT authenticators', `${HEAD}jwt:\n- issuer:\n    url: https://issuer.example\n    audiences: [a]\n`, 'jwt: Forbidden: JWT authenticators are not supported by this server'],
    [
      'a YAML alias bomb',
      `${HEAD}a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      '',
    ],
  ];
  it.each(bad)('refuses %s', (_name, text, message) => {
    let caught: unknown;
    try {
      parseAuthenticationConfiguration('/etc/authn.yaml', text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FileError);
    expect((caught as FileError).path).toBe('/etc/authn.yaml');
    expect((caught as FileError).message.startsWith(P + message)).toBe(true);
  });

  it('loads from disk; a missing file is a FileError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'authncfg-'));
    const path = join(dir, 'authn.json');
    writeFileSync(path, `${HEAD}anonymous:\n  enabled: true\n`);
    expect(loadAuthenticationConfiguration(path)).toEqual({ anonymous: { enabled: true, conditions: [] } });
    expect(() => loadAuthenticationConfiguration(join(dir, 'nope.yaml'))).toThrow(FileError);
  });
});

describe('effectiveAnonymous', () => {
  const fileOn = { anonymous: { enabled: true, conditions: [{ path: '/livez' }] } };
  it.each([
    ['default: enabled', { value: true, set: false }, undefined, { enabled: true, conditions: [] }],
    ['--anonymous-auth=false', { value: false, set: true }, undefined, { enabled: false, conditions: [] }],
    ['a file without an anonymous section leaves the flag in charge', { value: false, set: true }, {}, { enabled: false, conditions: [] }],
    ['the file decides when the flag is not given', { value: true, set: false }, fileOn, fileOn.anonymous],
  ])('%s', (_name, flag, config, want) => {
    expect(effectiveAnonymous(flag, config)).toEqual(want);
  });
  it("refuses the flag together with an anonymous section, with upstream's text", () => {
    expect(() => effectiveAnonymous({ value: true, set: true }, fileOn)).toThrow(ANONYMOUS_FLAG_CONFLICT);
  });
});

describe('anonymousAllowed', () => {
  const on: AnonymousConfig = { enabled: true, conditions: [] };
  const off: AnonymousConfig = { enabled: false, conditions: [] };
  const some: AnonymousConfig = { enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] };
  it.each([
    ['enabled, no conditions: any path', '/api/v1/secrets', on, true],
    ['disabled', '/livez', off, false],
    ['a listed path', '/livez', some, true],
    ['another listed path', '/readyz', some, true],
    ['an unlisted path', '/healthz', some, false],
    ['exact match only (no prefix)', '/livez/ping', some, false],
    ['exact match only (no trailing slash)', '/livez/', some, false],
  ] as [string, string, AnonymousConfig, boolean][])('%s', (_name, path, config, want) => {
    expect(anonymousAllowed(path, config)).toBe(want);
  });
});
