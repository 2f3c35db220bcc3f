// Several upstream OpenAPI v3 documents dropped into a temporary copy of
// api-specs/ in place of ours (scheduling.k8s.io/v1, coordination.k8s.io/v1,
// policy/v1 and rbac.authorization.k8s.io/v1 built from the reference
// swagger in v3 shape by upstream-v3.ts; node.k8s.io/v1 as the reference
// publishes it), once under names that sort before meta/ and once after.
// Each carries its own copies of the shared types (ObjectMeta with the
// removed clusterName and `default: {}` on creationTimestamp, core's
// Toleration, ...). Whatever the order: every other group-version generates
// as committed, the protobuf kind table keeps every entry and field numbers
// equal upstream's, and a server built from the output (its RBAC bootstrap
// policy included) creates every kind. Skips without the reference data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MergeSchema, ResourceDef } from '../../generated/api-types.ts';
import { generate, listFiles } from '../../codegen/generate.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { kindOf } from '../fuzz/kinds.ts';
import { validObject } from '../fuzz/objects.ts';
import { copySpecs, generatedDir, referenceDir, protoMessages, runtimeClassDoc, tempDir } from './helpers.ts';
import { readReference, upstreamV3Document } from './upstream-v3.ts';

const present = existsSync(runtimeClassDoc);
if (!present) console.warn(`skipping upstream drop-in test: ${runtimeClassDoc} not found (set SPECSERVER_REFERENCE_DIR)`);

interface Dropped {
  group: string;
  version: string;
  /** our document it replaces */
  ours: string;
  /** short name of the dropped-in file */
  name: string;
  /** the Go package of its types */
  pkg: string;
}

const DROPPED: Dropped[] = [
  { group: 'scheduling.k8s.io', version: 'v1', ours: 'scheduling.k8s.io_v1.json', name: 'scheduling', pkg: 'io.k8s.api.scheduling.v1.' },
  { group: 'coordination.k8s.io', version: 'v1', ours: 'coordination.k8s.io_v1.json', name: 'coordination', pkg: 'io.k8s.api.coordination.v1.' },
  { group: 'node.k8s.io', version: 'v1', ours: 'node.k8s.io_v1.json', name: 'node', pkg: 'io.k8s.api.node.v1.' },
  { group: 'policy', version: 'v1', ours: 'policy_v1.json', name: 'policy', pkg: 'io.k8s.api.policy.v1.' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', ours: 'rbac.authorization.k8s.io_v1.json', name: 'rbac', pkg: 'io.k8s.api.rbac.v1.' },
];
const VARIANTS = [
  { label: 'named to sort before meta/', prefix: 'a_' },
  { label: 'named to sort after every other file', prefix: 'zz_' },
];

const droppedSchema = (name: string) => DROPPED.some((d) => name.startsWith(d.pkg));
const droppedGroup = (group: string) => DROPPED.some((d) => d.group === group);
const droppedPath = (path: string) => DROPPED.some((d) => path.startsWith(`/apis/${d.group}/${d.version}/`));
/** Output files that hold one dropped-in group-version only. */
const ownFile = (f: string) =>
  DROPPED.some((d) => f === `validators/${d.group}_${d.version}.ts` || f === `openapi/v3/apis__${d.group}__${d.version}.json` || f.startsWith(`proto/k8s.io/api/${d.pkg.split('.')[3]}/${d.version}/`));
/** Output files listing every group-version: compared entry by entry below. */
const AGGREGATES = ['registry.ts', 'merge-schema.json', 'merge-schema.ts', 'openapi/v2.json', 'openapi/index.ts', 'openapi/v3/index.json'];

const t = tempDir('cg-dropin-shared');
const outs = new Map<string, { dir: string; notes: string[] }>();

beforeAll(async () => {
  if (!present) return;
  const ref = readReference(referenceDir);
  for (const v of VARIANTS) {
    const specs = copySpecs(join(t.dir, v.prefix));
    for (const d of DROPPED) {
      rmSync(join(specs, d.ours));
      const doc = d.name === 'node' ? readFileSync(runtimeClassDoc, 'utf8') : JSON.stringify(upstreamV3Document(ref, d.group, d.version));
      writeFileSync(join(specs, `${v.prefix}${d.name}.json`), doc);
    }
    const out = join(t.dir, v.prefix, 'generated');
    const r = await generate(specs, out);
    outs.set(v.prefix, { dir: out, notes: r.model.notes ?? [] });
  }
}, 600_000);
afterAll(() => t.cleanup());

const withoutDropped = (schemas: Record<string, unknown>) => Object.fromEntries(Object.entries(schemas).filter(([k]) => !droppedSchema(k)));

describe.skipIf(!present).each(VARIANTS)('upstream documents dropped in, $label', ({ prefix }) => {
  const out = () => outs.get(prefix)!.dir;

  it('leaves every other file byte for byte as committed', () => {
    const committed = listFiles(generatedDir).sort();
    expect(listFiles(out()).sort()).toEqual(committed);
    const changed = committed.filter(
      (f) => !ownFile(f) && !AGGREGATES.includes(f) && !f.startsWith('openapi/v3/') && readFileSync(join(out(), f), 'utf8') !== readFileSync(join(generatedDir, f), 'utf8'),
    );
    expect(changed).toEqual([]);
  });

  it('keeps the registry entries of every other group', async () => {
    const ours: ResourceDef[] = (await import(join(generatedDir, 'registry.ts'))).resources;
    const theirs: ResourceDef[] = (await import(join(out(), 'registry.ts'))).resources;
    expect(theirs.filter((r) => !droppedGroup(r.group))).toEqual(ours.filter((r) => !droppedGroup(r.group)));
    // what upstream paths say, and the built-in facts they cannot (name rules, create on update), as ours
    const facts = (list: ResourceDef[]) =>
      list
        .filter((r) => droppedGroup(r.group))
        .map((r) => ({
          gvk: `${r.group}/${r.version}/${r.kind}`,
          resource: r.resource,
          namespaced: r.namespaced,
          verbs: r.verbs,
          nameRule: r.nameRule,
          allowCreateOnUpdate: r.allowCreateOnUpdate,
          subresources: r.subresources.map((x) => x.name),
        }));
    expect(facts(theirs)).toEqual(facts(ours));
  });

  it('keeps the merge schema of every type but the dropped-in packages', async () => {
    const ours: MergeSchema = (await import(join(generatedDir, 'merge-schema.ts'))).mergeSchema;
    const theirs: MergeSchema = (await import(join(out(), 'merge-schema.ts'))).mergeSchema;
    expect(withoutDropped(theirs.types)).toEqual(withoutDropped(ours.types));
    // the ObjectMeta served is ours: no clusterName, no default on creationTimestamp
    const meta = JSON.stringify(theirs.types['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    expect(meta).not.toContain('clusterName');
  });

  it('keeps the OpenAPI documents of every other group-version', () => {
    const read = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, 'openapi', f), 'utf8'));
    const v2o = read(generatedDir, 'v2.json');
    const v2t = read(out(), 'v2.json');
    expect(withoutDropped(v2t.definitions)).toEqual(withoutDropped(v2o.definitions));
    const paths = (p: Record<string, unknown>) => Object.fromEntries(Object.entries(p).filter(([k]) => !droppedPath(k)));
    expect(paths(v2t.paths)).toEqual(paths(v2o.paths));
    for (const f of readdirSync(join(generatedDir, 'openapi', 'v3'))) {
      if (f === 'index.json' || ownFile(`openapi/v3/${f}`)) continue;
      const a = read(generatedDir, `v3/${f}`);
      const b = read(out(), `v3/${f}`);
      expect(b.paths, f).toEqual(a.paths);
      expect(withoutDropped(b.components.schemas), f).toEqual(withoutDropped(a.components.schemas));
    }
  });

  it('keeps every entry of the protobuf kind table', () => {
    const entries = (dir: string) => readFileSync(join(dir, 'proto', 'index.ts'), 'utf8').match(/^ "[^"]+\/[^"]+": "[^"]+",$/gm) ?? [];
    const ours = entries(generatedDir);
    expect(ours.length).toBeGreaterThan(200);
    expect(entries(out())).toEqual(ours);
  });

  it('numbers every protobuf field as upstream does', () => {
    const theirs = protoMessages(join(out(), 'proto'));
    const upstream = protoMessages(join(referenceDir, 'proto'));
    const ours = protoMessages(join(generatedDir, 'proto'));
    const diffs: string[] = [];
    let compared = 0;
    for (const [name, m] of theirs) {
      // the committed output's numbers never move
      const mine = ours.get(name);
      if (mine)
        for (const f of m.fields)
          if (mine.fields.find((x) => x.name === f.name)?.number !== f.number) diffs.push(`${name}.${f.name} = ${f.number}, committed ${mine.fields.find((x) => x.name === f.name)?.number}`);
      const up = upstream.get(name);
      if (!up) continue;
      for (const f of m.fields) {
        // upstream's proto names come from Go field names (`uID`, `Webhooks`): the same letters, another case
        const u = up.fields.find((x) => x.name.toLowerCase() === f.name.toLowerCase());
        if (u === undefined) diffs.push(`${name}.${f.name} = ${f.number}: upstream has no such field`);
        else if (u.number !== f.number) diffs.push(`${name}.${f.name} = ${f.number}, upstream ${u.number}`);
        compared++;
      }
    }
    expect(diffs).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  });

  it('notes the removed clusterName of the copies, and nothing else', () => {
    const notes = outs.get(prefix)!.notes;
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) expect(n).toMatch(/: field "clusterName" of io\.k8s\.apimachinery\.pkg\.apis\.meta\.v1\.ObjectMeta is not part of the API/);
    for (const d of DROPPED) expect(notes.some((n) => n.startsWith(`${prefix}${d.name}.json: `))).toBe(true);
  });

  describe('a server built from the output', () => {
    let s: RunningServer;
    let resources: ResourceDef[];
    const NS = 'dropin';
    const call = async (method: string, path: string, body?: unknown, accept = 'application/json') => {
      const res = await s.app.request(path, { method, headers: { 'content-type': 'application/json', accept }, body: body === undefined ? undefined : JSON.stringify(body) });
      return res;
    };
    beforeAll(async () => {
      s = await startServer({ authorizationMode: ['AlwaysAllow'], generatedDir: out() });
      resources = (await import(join(out(), 'registry.ts'))).resources;
      expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);
    }, 120_000);
    afterAll(async () => {
      await s?.stop();
    });

    it('creates one object of every kind', async () => {
      const kinds = resources.filter((r) => r.enabledByDefault && !r.virtual && r.verbs.includes('create')).map(kindOf);
      expect(kinds.length).toBeGreaterThan(40);
      const failed: string[] = [];
      for (const [i, k] of kinds.entries()) {
        if (k.def.kind === 'Namespace') continue;
        const path = k.def.namespaced ? `${k.base}/namespaces/${NS}/${k.def.resource}` : `${k.base}/${k.def.resource}`;
        const res = await call('POST', path, validObject(k, `dropin-${i}`, NS));
        const body = (await res.json()) as { metadata?: { creationTimestamp?: unknown } };
        if (res.status !== 201) failed.push(`${k.apiVersion} ${k.def.kind}: ${res.status} ${JSON.stringify(body)}`);
        else if (typeof body.metadata?.creationTimestamp !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(body.metadata.creationTimestamp)) {
          failed.push(`${k.apiVersion} ${k.def.kind}: creationTimestamp ${JSON.stringify(body.metadata?.creationTimestamp)}`);
        }
      }
      expect(failed).toEqual([]);
    });

    it('serves the dropped-in kinds as protobuf', async () => {
      const pc = await call('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'pb' }, value: 10 });
      expect(pc.status).toBe(201);
      for (const path of [
        '/apis/scheduling.k8s.io/v1/priorityclasses/pb',
        '/apis/coordination.k8s.io/v1/namespaces/dropin/leases',
        '/apis/node.k8s.io/v1/runtimeclasses',
        '/apis/policy/v1/namespaces/dropin/poddisruptionbudgets',
      ]) {
        const res = await call('GET', path, undefined, 'application/vnd.kubernetes.protobuf');
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toBe('application/vnd.kubernetes.protobuf');
      }
    });
  });
});
