// The upstream kube-apiserver document for node.k8s.io/v1 (RuntimeClass),
// dropped unchanged into a temporary copy of api-specs/ in place of ours,
// regenerates to an equivalent registry entry and validators. Skips when
// the reference data is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceDef, SchemaValidator } from '../../generated/api-types.ts';
import { generate } from '../../codegen/generate.ts';
import { copySpecs, runtimeClassDoc, tempDir } from './helpers.ts';

const present = existsSync(runtimeClassDoc);
if (!present) console.warn(`skipping upstream drop-in test: ${runtimeClassDoc} not found (set SPECSERVER_REFERENCE_DIR)`);

describe.skipIf(!present)('upstream node.k8s.io/v1 document dropped into api-specs/', () => {
  const t = tempDir('cg-upstream');
  let ours: ResourceDef[];
  let theirs: ResourceDef[];
  let oursV: Record<string, () => Promise<SchemaValidator>>;
  let theirsV: Record<string, () => Promise<SchemaValidator>>;
  let v3: { paths: Record<string, Record<string, Record<string, unknown>>> };

  beforeAll(async () => {
    const specs = copySpecs(t.dir);
    await generate(specs, join(t.dir, 'ours'));
    cpSync(runtimeClassDoc, join(specs, 'node.k8s.io_v1.json'));
    await generate(specs, join(t.dir, 'theirs'));
    ours = (await import(join(t.dir, 'ours', 'registry.ts'))).resources;
    theirs = (await import(join(t.dir, 'theirs', 'registry.ts'))).resources;
    oursV = (await import(join(t.dir, 'ours', 'validators', 'index.ts'))).validators;
    theirsV = (await import(join(t.dir, 'theirs', 'validators', 'index.ts'))).validators;
    v3 = JSON.parse(readFileSync(join(t.dir, 'theirs', 'openapi', 'v3', 'apis__node.k8s.io__v1.json'), 'utf8'));
  }, 600_000); // two full codegen runs: minutes on a loaded 2-core machine
  afterAll(() => t.cleanup());

  it('gives the RuntimeClass registry entry', () => {
    const rc = theirs.find((r) => r.kind === 'RuntimeClass');
    expect(rc).toMatchObject({
      group: 'node.k8s.io',
      version: 'v1',
      resource: 'runtimeclasses',
      singular: 'runtimeclass',
      listKind: 'RuntimeClassList',
      namespaced: false,
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
      subresources: [],
      stability: 'GA',
      enabledByDefault: true,
      preferredVersion: true,
      storageVersion: true,
      schema: 'io.k8s.api.node.v1.RuntimeClass',
      custom: false,
    });
    const mine = ours.find((r) => r.kind === 'RuntimeClass');
    if (mine) {
      // What paths cannot express (short names, categories, columns) takes defaults; the rest matches ours.
      const { shortNames, categories, printerColumns, selectableFields, ...rest } = mine;
      expect(theirs.find((r) => r.kind === 'RuntimeClass')).toMatchObject(rest);
      void shortNames;
      void categories;
      void printerColumns;
      void selectableFields;
    }
    expect(theirs.filter((r) => r.group !== 'node.k8s.io')).toEqual(ours.filter((r) => r.group !== 'node.k8s.io'));
  });

  const cases: { name: string; value: unknown; issues: string[] }[] = [
    { name: 'a valid object', value: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' }, issues: [] },
    {
      name: 'overhead and scheduling',
      value: {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: 'k' },
        handler: 'kata',
        overhead: { podFixed: { cpu: '250m', memory: 120 } },
        scheduling: { nodeSelector: { a: 'b' }, tolerations: [{ key: 'k', operator: 'Exists' }] },
      },
      issues: [],
    },
    { name: 'missing handler', value: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'x' } }, issues: ['required handler'] },
    {
      name: 'unknown fields everywhere',
      value: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'x', nope: 1 }, handler: 'h', extra: true, scheduling: { tolerations: [{ key: 'k', wat: 1 }] } },
      issues: ['unknown extra', 'unknown metadata.nope', 'unknown scheduling.tolerations[0].wat'],
    },
    {
      name: 'wrong types',
      value: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'x', labels: { a: 1 } }, handler: 5, scheduling: { tolerations: [{ tolerationSeconds: 'soon' }] } },
      issues: ['type handler', 'type metadata.labels[a]', 'type scheduling.tolerations[0].tolerationSeconds'],
    },
  ];

  it.each(cases)('validates $name the same way as our spec', async ({ value, issues }) => {
    const v = await theirsV['io.k8s.api.node.v1.RuntimeClass']();
    const got = v(value)
      .map((i) => `${i.kind} ${i.path}`)
      .sort();
    expect(got).toEqual(issues);
    if (oursV['io.k8s.api.node.v1.RuntimeClass']) {
      const o = await oursV['io.k8s.api.node.v1.RuntimeClass']();
      expect(
        o(value)
          .map((i) => `${i.kind} ${i.path}`)
          .sort(),
      ).toEqual(got);
    }
  });

  it('publishes paths with x-kubernetes-action and group-version-kind for kubectl explain', () => {
    const item = v3.paths['/apis/node.k8s.io/v1/runtimeclasses/{name}'];
    expect(item.get['x-kubernetes-action']).toBe('get');
    expect(item.get['x-kubernetes-group-version-kind']).toEqual({ group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass' });
    expect(v3.paths['/apis/node.k8s.io/v1/runtimeclasses'].post['x-kubernetes-action']).toBe('post');
  });
});
