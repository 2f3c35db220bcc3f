import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpecs } from './index.ts';
import { builtinGroupVersionFacts, withBuiltinFacts } from './builtin-facts.ts';
import type { DeclaredResource } from './compact.ts';

const specs = fileURLToPath(new URL('../../api-specs', import.meta.url));
const model = loadSpecs(specs);
const resources = model.resources.filter((r) => !r.custom);

describe('withBuiltinFacts', () => {
  it('covers a real number of kinds', () => {
    expect(resources.length).toBeGreaterThan(50);
  });

  // every built-in kind read from upstream paths (name rule and create-on-update at their defaults) gets what our documents state
  it.each(resources.map((r) => [`${r.group || 'core'}/${r.version} ${r.kind}`, r] as const))('%s', (_label, r) => {
    const fromPaths = { ...(r as unknown as DeclaredResource), nameRule: 'subdomain' as const, allowCreateOnUpdate: false };
    const got = withBuiltinFacts(r.group, fromPaths);
    expect({ nameRule: got.nameRule, allowCreateOnUpdate: got.allowCreateOnUpdate }).toEqual({ nameRule: r.nameRule, allowCreateOnUpdate: r.allowCreateOnUpdate });
  });

  it('leaves other kinds alone', () => {
    const d = { kind: 'Widget', nameRule: 'subdomain', allowCreateOnUpdate: false } as DeclaredResource;
    expect(withBuiltinFacts('example.dev', d)).toBe(d);
  });
});

describe('builtinGroupVersionFacts', () => {
  // what our documents state in x-specserver-group-version, for a document that states nothing
  it.each(readdirSync(specs).filter((f) => f.endsWith('.json')))('%s', (f) => {
    const doc = JSON.parse(readFileSync(join(specs, f), 'utf8')) as { 'x-specserver-group-version'?: Record<string, unknown> };
    const gv = model.groupVersions.find((g) => g.file === f)!;
    const { group, version, ...settings } = doc['x-specserver-group-version'] ?? { group: gv.group, version: gv.version };
    expect(builtinGroupVersionFacts(String(group), String(version))).toEqual(settings);
  });
});
