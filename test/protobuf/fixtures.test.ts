// Upstream's own round-trip fixtures (../shared/reference/fixtures): for every
// fixture whose kind we serve in protobuf, decoding the .pb gives the .json
// object and encoding the .json gives exactly the .pb bytes.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadKubeProtobuf, type Codec, type KubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import { unwrap, wrap } from '../../runtime/codec/protobuf/envelope.ts';
import { fixtureNames, referenceDir } from './reference.ts';

const dir = referenceDir();

/** `core.v1.ConfigMap` -> v1/ConfigMap; `apps.v1.Deployment` -> apps/v1/Deployment. */
function typeFromName(name: string): { apiVersion: string; kind: string } {
  const parts = name.split('.');
  const kind = parts.pop()!;
  const version = parts.pop()!;
  const group = parts.join('.');
  return { apiVersion: group === 'core' ? version : `${group}/${version}`, kind };
}

describe.skipIf(!dir)('protobuf fixtures from upstream (skipped: reference data absent)', () => {
  let pb: KubeProtobuf;
  const cases: Array<{ name: string; json: Record<string, any>; bytes: Uint8Array }> = [];
  beforeAll(async () => {
    pb = await loadKubeProtobuf();
  });
  for (const name of dir ? fixtureNames(dir) : []) {
    const raw = JSON.parse(readFileSync(join(dir!, 'fixtures', `${name}.json`), 'utf8'));
    const json = { ...typeFromName(name), ...raw };
    cases.push({ name, json, bytes: new Uint8Array(readFileSync(join(dir!, 'fixtures', `${name}.pb`))) });
  }

  it('covers every served kind that has a fixture', () => {
    const served = cases.filter((c) => pb.supports(c.json.apiVersion, c.json.kind)).map((c) => c.name);
    expect(served.length).toBeGreaterThanOrEqual(55);
    for (const must of ['core.v1.Pod', 'core.v1.Secret', 'core.v1.ConfigMap', 'core.v1.Status', 'apps.v1.Deployment', 'core.v1.WatchEvent']) {
      expect(served).toContain(must);
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: .pb decodes to .json and .json encodes to .pb', (_n, c) => {
    if (!pb.supports(c.json.apiVersion, c.json.kind)) return; // a group-version we do not serve
    let bytes = c.bytes;
    const env = unwrap(bytes);
    // WatchEvent has no type meta of its own: upstream's fixture leaves it empty.
    if (env.kind === '') bytes = wrap(c.json.apiVersion, c.json.kind, env.raw);
    expect(pb.decode(bytes)).toEqual(c.json);
    expect((pb as Codec).decodeReflect(bytes)).toEqual(c.json);
    let enc = pb.encode(c.json);
    if (env.kind === '') enc = wrap('', '', unwrap(enc).raw);
    expect(Buffer.from(enc).toString('hex')).toBe(Buffer.from(c.bytes).toString('hex'));
  });
});
