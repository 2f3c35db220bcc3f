// Every group-version document of api-specs/ replaced, in a temporary copy,
// by upstream's (built from the reference swagger in the v3 shape
// kube-apiserver publishes, upstream-v3.ts; our conversion declarations
// carried over, checked against upstream's schemas), each under a name that sorts
// before meta/: codegen reads upstream's markers and copies of shared types
// across the whole API (core/v1 included), the registry serves what ours
// does, protobuf numbers and kinds stay as committed and as upstream's, and
// a server built from the output starts (RBAC bootstrap included) and
// creates one object of every kind. Skips without the reference data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceDef } from '../../generated/api-types.ts';
import { generate } from '../../codegen/generate.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { kindOf } from '../fuzz/kinds.ts';
import { validObject } from '../fuzz/objects.ts';
import { copySpecs, generatedDir, referenceDir, protoMessages, runtimeClassDoc, tempDir } from './helpers.ts';
import { readReference, upstreamV3Document } from './upstream-v3.ts';

const present = existsSync(runtimeClassDoc);
if (!present) console.warn(`skipping upstream drop-in test: ${runtimeClassDoc} not found (set SPECSERVER_REFERENCE_DIR)`);

const t = tempDir('cg-dropin-every');
let out = '';
let notes: string[] = [];
let replaced: string[] = [];

beforeAll(async () => {
  if (!present) return;
  const ref = readReference(referenceDir);
  const specs = copySpecs(t.dir);
  for (const f of readdirSync(specs).filter((x) => x.endsWith('.json'))) {
    const m = /^(.+)_(v\d+(?:(?:alpha|beta)\d+)?)\.json$/.exec(f);
    if (!m) throw new Error(`unexpected spec file name ${f}`);
    // the conversion declarations are ours, not upstream's: they go with the dropped-in document
    const conversions = (JSON.parse(readFileSync(join(specs, f), 'utf8')) as Record<string, unknown>)['x-specserver-conversions'];
    rmSync(join(specs, f));
    const doc = upstreamV3Document(ref, m[1] === 'core' ? '' : m[1], m[2]);
    writeFileSync(join(specs, `a_${f}`), JSON.stringify(conversions === undefined ? doc : { ...doc, 'x-specserver-conversions': conversions }));
    replaced.push(`a_${f}`);
  }
  replaced = replaced.sort();
  out = join(t.dir, 'generated');
  notes = (await generate(specs, out)).model.notes ?? [];
}, 600_000);
afterAll(() => t.cleanup());

const key = (r: ResourceDef) => `${r.group}/${r.version}/${r.resource}`;

describe.skipIf(!present)('every group-version document replaced by upstream', () => {
  it('reads them all, noting only the removed clusterName of each copy of ObjectMeta', () => {
    expect(replaced.length).toBeGreaterThan(15);
    expect(notes.filter((n) => !/: field "clusterName" of io\.k8s\.apimachinery\.pkg\.apis\.meta\.v1\.ObjectMeta is not part of the API/.test(n))).toEqual([]);
    expect([...new Set(notes.map((n) => n.split(':')[0]))].sort()).toEqual(replaced);
  });

  it('serves every resource ours does, with the same facts', async () => {
    const ours: ResourceDef[] = (await import(join(generatedDir, 'registry.ts'))).resources;
    const theirs = new Map<string, ResourceDef>(((await import(join(out, 'registry.ts'))).resources as ResourceDef[]).map((r) => [key(r), r]));
    const facts = (r: ResourceDef | undefined) =>
      r && {
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs,
        nameRule: r.nameRule,
        allowCreateOnUpdate: r.allowCreateOnUpdate,
        enabledByDefault: r.enabledByDefault,
        storageVersion: r.storageVersion,
      };
    for (const r of ours) expect(facts(theirs.get(key(r))), key(r)).toEqual(facts(r));
  });

  it('keeps every protobuf kind and field number, as committed and as upstream', () => {
    const entries = (dir: string) => readFileSync(join(dir, 'proto', 'index.ts'), 'utf8').match(/^ "[^"]+\/[^"]+": "[^"]+",$/gm) ?? [];
    const theirsKinds = new Set(entries(out));
    expect(entries(generatedDir).filter((e) => !theirsKinds.has(e))).toEqual([]);
    const theirs = protoMessages(join(out, 'proto'));
    const committed = protoMessages(join(generatedDir, 'proto'));
    const upstream = protoMessages(join(referenceDir, 'proto'));
    const diffs: string[] = [];
    for (const [name, m] of theirs) {
      for (const f of m.fields) {
        const c = committed.get(name)?.fields.find((x) => x.name === f.name);
        if (c && c.number !== f.number) diffs.push(`${name}.${f.name} = ${f.number}, committed ${c.number}`);
        const up = upstream.get(name);
        const u = up?.fields.find((x) => x.name.toLowerCase() === f.name.toLowerCase());
        if (up && u?.number !== f.number) diffs.push(`${name}.${f.name} = ${f.number}, upstream ${u?.number}`);
      }
    }
    expect(diffs).toEqual([]);
  });

  describe('a server built from the output', () => {
    let s: RunningServer;
    const NS = 'every';
    const call = (method: string, path: string, body?: unknown) =>
      s.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    beforeAll(async () => {
      s = await startServer({ authorizationMode: ['AlwaysAllow'], generatedDir: out });
      expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);
    }, 120_000);
    afterAll(async () => {
      await s?.stop();
    });

    it('creates one object of every kind ours serves', async () => {
      const ours: ResourceDef[] = (await import(join(generatedDir, 'registry.ts'))).resources;
      const kinds = ours.filter((r) => r.enabledByDefault && !r.virtual && r.verbs.includes('create') && r.kind !== 'Namespace').map(kindOf);
      expect(kinds.length).toBeGreaterThan(40);
      const failed: string[] = [];
      for (const [i, k] of kinds.entries()) {
        const path = k.def.namespaced ? `${k.base}/namespaces/${NS}/${k.def.resource}` : `${k.base}/${k.def.resource}`;
        const res = await call('POST', path, validObject(k, `every-${i}`, NS));
        if (res.status !== 201) failed.push(`${k.apiVersion} ${k.def.kind}: ${res.status} ${await res.text()}`);
        else {
          const ts = ((await res.json()) as { metadata: { creationTimestamp?: unknown } }).metadata.creationTimestamp;
          if (typeof ts !== 'string') failed.push(`${k.apiVersion} ${k.def.kind}: creationTimestamp ${JSON.stringify(ts)}`);
        }
      }
      expect(failed).toEqual([]);
    });
  });
});
