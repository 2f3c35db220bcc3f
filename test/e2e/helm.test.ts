// End-to-end: the real helm 3 against a real server process — install a
// chart made by `helm create`, list, upgrade, roll back, uninstall; and a
// chart with a `crds/` directory whose template creates a custom resource of
// that CRD in the same install (helm creates the CRDs, waits for them to be
// established and discovered, then applies its templates); uninstall leaves
// the CRD, as helm does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClients } from '../support/clients.ts';
import { kubectlFor, run, type RunResult } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

let server: ServerProcess;
let home: string;
let helm: (args: string[]) => Promise<RunResult>;
let k: (args: string[]) => Promise<RunResult>;

beforeAll(async () => {
  server = await startServerProcess();
  home = mkdtempSync(join(tmpdir(), 'helm-home-'));
  const env = { HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  const bin = ensureClients().helm;
  helm = (args) => run(bin, ['--kubeconfig', server.kubeconfig, ...args], { env, timeoutMs: 60_000 });
  const base = kubectlFor(server.kubeconfig);
  k = (args) => base(args, { env: { HOME: home } });
});
afterAll(async () => {
  await server?.stop();
});

const ok = (r: RunResult) => {
  if (r.code !== 0) throw new Error(`failed (${r.code}): ${r.stderr}\n${r.stdout}`);
  return r.stdout;
};

describe('helm', () => {
  it('installs, upgrades, rolls back and uninstalls a chart', async () => {
    const chart = join(home, 'demo');
    ok(await run(ensureClients().helm, ['create', chart], { env: { HOME: home } }));
    ok(await helm(['install', 'demo', chart, '--namespace', 'default']));
    const list = ok(await helm(['list', '-o', 'json']));
    expect(JSON.parse(list)[0]).toMatchObject({ name: 'demo', status: 'deployed', revision: '1' });
    expect(ok(await k(['get', 'deployment', 'demo', '-o', 'name']))).toBe('deployment.apps/demo\n');
    expect(ok(await k(['get', 'serviceaccount', 'demo', '-o', 'name']))).toBe('serviceaccount/demo\n');
    expect(ok(await k(['get', 'secrets', '-l', 'owner=helm', '-o', 'name']))).toContain('sh.helm.release.v1.demo.v1');

    ok(await helm(['upgrade', 'demo', chart, '--set', 'replicaCount=3']));
    expect(JSON.parse(ok(await k(['get', 'deployment', 'demo', '-o', 'json']))).spec.replicas).toBe(3);
    ok(await helm(['rollback', 'demo', '1']));
    expect(JSON.parse(ok(await k(['get', 'deployment', 'demo', '-o', 'json']))).spec.replicas).toBe(1);
    const history = JSON.parse(ok(await helm(['history', 'demo', '-o', 'json'])));
    expect(history.map((h: any) => h.revision)).toEqual([1, 2, 3]);

    ok(await helm(['uninstall', 'demo']));
    expect((await k(['get', 'deployment', 'demo'])).code).not.toBe(0);
    expect(JSON.parse(ok(await helm(['list', '-o', 'json'])))).toEqual([]);
  });

  it('installs a chart with crds/ and a custom resource of that CRD in one go, upgrades and uninstalls it', async () => {
    const chart = join(home, 'things');
    writeChart(chart);
    ok(await helm(['install', 'things', chart, '--namespace', 'default']));
    expect(JSON.parse(ok(await helm(['list', '-o', 'json']))).find((r: { name: string }) => r.name === 'things')).toMatchObject({ status: 'deployed', revision: '1' });
    const thing = () => k(['get', 'things.charts.example.com', 'things-thing', '-o', 'json']);
    // the schema's default is applied to what the template sent
    expect(JSON.parse(ok(await thing())).spec).toEqual({ size: 1, color: 'red' });
    expect(ok(await k(['get', 'things']))).toMatch(/^NAME\s+SIZE\nthings-thing\s+1$/m);

    ok(await helm(['upgrade', 'things', chart, '--set', 'size=3']));
    expect(JSON.parse(ok(await thing())).spec).toEqual({ size: 3, color: 'red' });

    ok(await helm(['uninstall', 'things']));
    expect((await thing()).code).not.toBe(0);
    // helm never deletes the CRDs of crds/
    expect(ok(await k(['get', 'crd', 'things.charts.example.com', '-o', 'name']))).toBe('customresourcedefinition.apiextensions.k8s.io/things.charts.example.com\n');
    expect(ok(await k(['get', 'things', '-o', 'name']))).toBe('');
  });
});

/** A chart whose crds/ holds the Thing CRD and whose template creates a Thing. */
function writeChart(dir: string): void {
  mkdirSync(join(dir, 'crds'), { recursive: true });
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: things\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'values.yaml'), 'size: 1\n');
  writeFileSync(
    join(dir, 'crds', 'thing.yaml'),
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.charts.example.com
spec:
  group: charts.example.com
  scope: Namespaced
  names:
    plural: things
    singular: thing
    kind: Thing
  versions:
    - name: v1
      served: true
      storage: true
      additionalPrinterColumns:
        - name: Size
          type: integer
          jsonPath: .spec.size
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size:
                  type: integer
                  minimum: 0
                color:
                  type: string
                  default: red
`,
  );
  writeFileSync(join(dir, 'templates', 'thing.yaml'), 'apiVersion: charts.example.com/v1\nkind: Thing\nmetadata:\n  name: {{ .Release.Name }}-thing\nspec:\n  size: {{ .Values.size }}\n');
}
