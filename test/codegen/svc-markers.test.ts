// The seed's marker spelling: a spec tree whose schemas write the markers
// as x-svc-* generates exactly what the x-kubernetes-* spelling generates
// (so the served OpenAPI, validators and merge schema carry only the
// x-kubernetes-* spelling); both spellings with equal values are accepted.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpecs } from '../../codegen/load/index.ts';
import { generateFiles } from '../../codegen/generate.ts';
import { fixturesDir, fixtureTree, osTempDir } from './helpers.ts';

const temps: (() => void)[] = [];
afterAll(() => temps.forEach((c) => c()));

const widget = (): unknown => JSON.parse(readFileSync(join(fixturesDir, 'widget', 'example.dev_v1.json'), 'utf8'));
const crd = readFileSync(join(fixturesDir, 'crd', 'gadgets.toys.example.dev.yaml'), 'utf8');

/** Renames every x-kubernetes-* key except the group-version-kind list (not a schema marker) to x-svc-*. */
function svcSpelling(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(svcSpelling);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k.startsWith('x-kubernetes-') && k !== 'x-kubernetes-group-version-kind' ? `x-svc-${k.slice('x-kubernetes-'.length)}` : k, svcSpelling(x)]),
  );
}

function generate(files: Record<string, unknown>): Map<string, string> {
  const t = osTempDir('cg-svc');
  temps.push(t.cleanup);
  return generateFiles(loadSpecs(fixtureTree(t.dir, files)));
}

describe('x-svc-* marker spelling', () => {
  const plain = generate({ 'w.json': widget(), 'crd.yaml': crd });
  const svc = generate({
    'w.json': svcSpelling(widget()),
    'crd.yaml': crd.replace(/x-kubernetes-(list-type|list-map-keys|map-type|preserve-unknown-fields|int-or-string|embedded-resource|validations)/g, 'x-svc-$1'),
  });

  it('the fixtures use the markers (the comparison means something)', () => {
    expect(JSON.stringify(svcSpelling(widget()))).toContain('x-svc-list-map-keys');
    expect(crd).toMatch(/x-kubernetes-list-type/);
  });

  it('generates the same files', () => {
    expect([...svc.keys()].sort()).toEqual([...plain.keys()].sort());
    for (const [name, text] of plain) expect(svc.get(name), name).toBe(text);
  });

  it('serves only the x-kubernetes-* spelling', () => {
    for (const [name, text] of svc) expect(text.includes('x-svc-'), name).toBe(false);
    expect([...svc.values()].some((t) => t.includes('x-kubernetes-list-map-keys'))).toBe(true);
  });

  it('accepts both spellings of a marker with equal values', () => {
    const d = widget() as Record<string, any>;
    const ports = d.components.schemas['dev.example.v1.WidgetSpec'].properties.ports;
    ports['x-svc-list-type'] = ports['x-kubernetes-list-type'];
    expect(generate({ 'w.json': d, 'crd.yaml': crd })).toEqual(plain);
  });
});
