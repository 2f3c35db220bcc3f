// End-to-end: a spec dropped into a copy of api-specs/ (the test-only Widget
// kind, and the Gadget CRD manifest) is regenerated and served by a real
// server process; kubectl creates, lists, validates and deletes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../codegen/generate.ts';
import { projectRoot } from '../support/clients.ts';
import { kubectlFor, type RunResult } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';

let server: ServerProcess;
let work: string;
let k: (args: string[], opts?: { input?: string }) => Promise<RunResult>;

beforeAll(async () => {
  // inside the project so that generated modules resolve node_modules
  mkdirSync(join(projectRoot, '.cache'), { recursive: true });
  work = mkdtempSync(join(projectRoot, '.cache', 'e2e-dropin-'));
  const specs = join(work, 'specs');
  cpSync(join(projectRoot, 'api-specs'), specs, { recursive: true });
  const fixtures = join(projectRoot, 'test', 'codegen', 'fixtures');
  cpSync(join(fixtures, 'widget', 'example.dev_v1.json'), join(specs, 'example.dev_v1.json'));
  mkdirSync(join(specs, 'crds'), { recursive: true });
  cpSync(join(fixtures, 'crd', 'gadgets.toys.example.dev.yaml'), join(specs, 'crds', 'gadgets.toys.example.dev.yaml'));
  await generate(specs, join(work, 'generated'));
  server = await startServerProcess(['--generated-dir', join(work, 'generated')]);
  const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  const base = kubectlFor(server.kubeconfig);
  k = (args, opts = {}) => base(args, { ...opts, env: { HOME: home } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const ok = (r: RunResult) => {
  if (r.code !== 0) throw new Error(`kubectl failed: ${r.stderr}`);
  return r.stdout;
};

describe('a dropped-in spec is served end to end', () => {
  it('appears in api-resources', async () => {
    const out = ok(await k(['api-resources', '--api-group=example.dev']));
    expect(out).toMatch(/^widgets\s+wd\s+example.dev\/v1\s+true\s+Widget$/m);
    expect(ok(await k(['api-resources', '--api-group=toys.example.dev']))).toMatch(/^gadgets\s+gd\s+toys.example.dev\/v1\s+true\s+Gadget$/m);
  });

  it('creates, lists with its printer columns, and deletes widgets', async () => {
    ok(await k(['apply', '-f', '-'], { input: 'apiVersion: example.dev/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  color: red\n  size: 3\n' }));
    const table = ok(await k(['get', 'widgets']));
    expect(table).toMatch(/^NAME\s+COLOR\s+AGE$/m);
    expect(table).toMatch(/^w1\s+red\s+\d+s$/m);
    expect(ok(await k(['get', 'wd', '-o', 'wide']))).toMatch(/^w1\s+red\s+3\s+\d+s$/m);
    expect(ok(await k(['get', 'wd', '--field-selector', 'spec.color=red', '-o', 'name']))).toBe('widget.example.dev/w1\n');
    ok(await k(['delete', 'widget', 'w1']));
    expect((await k(['get', 'widget', 'w1'])).code).not.toBe(0);
  });

  it('validates widgets against the spec', async () => {
    const r = await k(['create', '-f', '-'], { input: 'apiVersion: example.dev/v1\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  color: purple\n  size: 300\n' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.color');
    expect(r.stderr).toContain('spec.size');
  });

  it('serves a custom resource from the CRD manifest', async () => {
    ok(await k(['create', '-f', '-'], { input: 'apiVersion: toys.example.dev/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  mode: fast\n  replicas: 2\n' }));
    expect(ok(await k(['get', 'gadgets']))).toMatch(/^NAME\s+MODE\ng1\s+fast$/m);
    // custom resources have no protobuf form: 406 when only protobuf is acceptable, JSON when it is an alternative
    const G = `${server.url}/apis/toys.example.dev/v1/namespaces/default/gadgets/g1`;
    const pbOnly = await serverFetch(G, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(pbOnly.status).toBe(406);
    expect((await pbOnly.json()).reason).toBe('NotAcceptable');
    const fallback = await serverFetch(G, { headers: { accept: 'application/vnd.kubernetes.protobuf, application/json' } });
    expect(fallback.headers.get('content-type')).toBe('application/json');
    ok(await k(['scale', 'gadget', 'g1', '--replicas=5']));
    expect(JSON.parse(ok(await k(['get', 'gadget', 'g1', '-o', 'json']))).spec.replicas).toBe(5);
    const missing = await k(['create', '-f', '-'], { input: 'apiVersion: toys.example.dev/v1\nkind: Gadget\nmetadata:\n  name: g2\nspec: {}\n' });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('spec.mode: Required value');
  });
});
