// End-to-end: the compiled server, run as `npm start` runs it (the prestart
// build when stale, then `node dist/cli.js`), answers /readyz and real kubectl
// writes and reads, loading validators and protobuf messages on first use; the
// package's compiled entry (`import 'specserver'`) starts a server in a plain
// node process; the merge schema is read only when a write first needs it (a
// restart that writes nothing never reads it); and the build notices a
// changed source file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClients, projectRoot } from '../support/clients.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';
import { asciiOnly, staleInputs } from '../../scripts/build.mjs';

const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  exports: Record<string, Record<string, string>>;
};

describe('the package runs compiled JavaScript', () => {
  it.each([
    ['prepare', 'node scripts/build.mjs'],
    ['prestart', 'node scripts/build.mjs --if-stale'],
    ['start', 'node dist/cli.js'],
  ])('script %s is %s', (name, command) => {
    expect(pkg.scripts[name]).toBe(command);
  });

  it('exports dist/index.js, with the TypeScript sources as its types', () => {
    expect(pkg.exports['.']).toEqual({ types: './runtime/index.ts', default: './dist/index.js' });
  });
});

describe('compiled server process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // what `npm start` runs first
    const built = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--if-stale'], { cwd: projectRoot, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(staleInputs()).toEqual([]);
    server = await startServerProcess([], { compiled: true });
  }, 120_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('is ready, and kubectl creates and reads back', async () => {
    expect((await serverFetch(`${server.url}/readyz`)).status).toBe(200);
    const { kubectl } = ensureClients();
    const run = (...args: string[]) => execFileSync(kubectl, ['--kubeconfig', server.kubeconfig, ...args], { encoding: 'utf8' });
    expect(run('create', 'configmap', 'compiled', '--from-literal=a=1')).toContain('configmap/compiled created');
    expect(JSON.parse(run('get', 'configmap', 'compiled', '-o', 'json')).data).toEqual({ a: '1' });
    expect(run('create', 'deployment', 'web', '--image=nginx')).toContain('deployment.apps/web created');
  });

  it("loads a group-version's schema validator on first use: a field of the wrong type is 400", async () => {
    const r = await serverFetch(`${server.url}/apis/batch/v1/namespaces/default/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'bad' }, spec: { parallelism: 'many' } }),
    });
    expect(r.status).toBe(400);
    const status = (await r.json()) as { reason: string; message: string };
    expect(status.reason).toBe('BadRequest');
    expect(status.message).toContain('spec.parallelism in body must be of type integer');
  });

  it('answers protobuf', async () => {
    const r = await serverFetch(`${server.url}/api/v1/namespaces/default/configmaps/compiled`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    expect(
      Buffer.from(await r.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('k8s\0');
  });
});

interface Metafile {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

/** The packages an output file loads before its code runs: its static imports, followed through the build's chunks. */
function staticPackages(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of meta.outputs[file].imports) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) packages.add(i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : i.path.split('/')[0]);
      else visit(i.path);
    }
  };
  visit(entry);
  return packages;
}

describe('what start-up loads', () => {
  const meta = () => JSON.parse(readFileSync(join(projectRoot, 'dist', 'meta.json'), 'utf8')) as Metafile;
  it.each([
    ['@bufbuild/cel', 'CEL: only matchConditions of an --authorization-config file'],
    ['@bufbuild/protobuf', 'protobuf messages and CEL'],
    ['@bufbuild/re2', 'RE2 patterns of CustomResourceDefinitions, loaded on the first compile'],
    ['fast-json-patch', 'JSON patch, loaded on the first one'],
    ['@peculiar/x509', 'certificates are made by runtime/auth/pki'],
    ['ajv', 'schema validators, per group-version'],
    ['jose', 'service-account and bootstrap tokens'],
    ['yaml', 'YAML bodies, answers and configuration files'],
  ])('the entries do not import %s (%s)', (pkg) => {
    for (const entry of ['dist/index.js', 'dist/cli.js']) expect(staticPackages(meta(), entry)).not.toContain(pkg);
  });
  it('every compiled file is ASCII (V8 keeps a source with one character beyond Latin-1 at two bytes a character)', () => {
    const js = Object.keys(meta().outputs).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(10);
    expect(js.filter((f) => /[^\x00-\x7f]/.test(readFileSync(join(projectRoot, f), 'utf8')))).toEqual([]);
  });
  it.each([
    ['/** a → b */', '/** a \\u2192 b */'],
    ['// it’s — fine', '// it\\u2019s \\u2014 fine'],
    ['plain', 'plain'],
  ])('asciiOnly(%j) is %j', (text, want) => {
    expect(asciiOnly(text)).toBe(want);
  });
  it('but they do import the server itself', () => {
    expect([...staticPackages(meta(), 'dist/index.js')]).toEqual(expect.arrayContaining(['hono', 'better-sqlite3']));
  });
});

describe("import('specserver')", () => {
  it('resolves to dist/index.js and starts a server in a plain node process', () => {
    const script = `
      const url = import.meta.resolve('specserver');
      const { startServer } = await import('specserver');
      const s = await startServer({ authorizationMode: ['AlwaysAllow'] });
      const created = await s.app.request('/api/v1/namespaces/default/configmaps', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: 'v' } }),
      });
      const got = await s.app.request('/api/v1/namespaces/default/configmaps/x');
      console.log(JSON.stringify({ url, created: created.status, got: got.status, data: (await got.json()).data }));
      await s.stop();
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result).toEqual({ url: `file://${join(projectRoot, 'dist', 'index.js')}`, created: 201, got: 200, data: { k: 'v' } });
  });
});

describe('YAML on first use', () => {
  it('a started server has not loaded the yaml package; a YAML body as the first request loads it and is served, and so is a YAML answer', () => {
    const script = `
      import { createRequire } from 'node:module';
      const yamlLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/yaml/'));
      const { startServer } = await import('specserver');
      const s = await startServer({ authorizationMode: ['AlwaysAllow'] });
      const atStart = yamlLoaded();
      const created = await s.app.request('/api/v1/namespaces/default/configmaps', {
        method: 'POST', headers: { 'content-type': 'application/yaml' },
        body: 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: y\\ndata:\\n  k: v\\n',
      });
      const got = await s.app.request('/api/v1/namespaces/default/configmaps/y', { headers: { accept: 'application/yaml' } });
      const text = await got.text();
      console.log(JSON.stringify({ atStart, created: created.status, got: got.status, type: got.headers.get('content-type'), hasData: text.includes('k: v'), after: yamlLoaded() }));
      await s.stop();
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result).toEqual({ atStart: false, created: 201, got: 200, type: 'application/yaml', hasData: true, after: true });
  });
});

describe("prom-client's default metrics on the first scrape", () => {
  it('a started server has not loaded them (nor the package entry that loads them); the first /metrics does and lists them', () => {
    const script = `
      import { createRequire } from 'node:module';
      const loaded = (file) => Object.keys(createRequire(import.meta.url).cache).some((k) => k.endsWith('/node_modules/prom-client/' + file));
      const { startServer } = await import('specserver');
      const s = await startServer({ authorizationMode: ['AlwaysAllow'] });
      const atStart = { defaults: loaded('lib/defaultMetrics.js'), entry: loaded('index.js') };
      const r = await s.app.request('/metrics');
      const text = await r.text();
      console.log(JSON.stringify({ atStart, status: r.status, listed: text.includes('process_cpu_seconds_total'), after: loaded('lib/defaultMetrics.js') }));
      await s.stop();
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result).toEqual({ atStart: { defaults: false, entry: false }, status: 200, listed: true, after: true });
  });
});

describe('the merge schema on first use', () => {
  it('a restart reads no merge-schema.json; the first server-side apply and strategic merge patch read it and are served', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'compiled-merge-'));
    // node:fs's readFileSync, recorded: syncBuiltinESMExports() hands the recording to the modules that import it by name
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const read = [];
      const original = fs.readFileSync;
      fs.readFileSync = (...args) => { read.push(String(args[0])); return original(...args); };
      syncBuiltinESMExports();
      const mergeRead = () => read.some((f) => f.endsWith('merge-schema.json'));
      const { startServer } = await import('specserver');
      const s = await startServer({ dataDir: process.argv[1], port: Number(process.argv[2]), insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] });
      const atStart = mergeRead();
      const applied = await s.app.request('/api/v1/namespaces/default/configmaps/a?fieldManager=t', {
        method: 'PATCH', headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } }),
      });
      const patched = await s.app.request('/api/v1/namespaces/default/configmaps/a', {
        method: 'PATCH', headers: { 'content-type': 'application/strategic-merge-patch+json' },
        body: JSON.stringify({ data: { l: 'w' } }),
      });
      const data = (await patched.json()).data;
      console.log(JSON.stringify({ port: s.port, atStart, applied: applied.status, patched: patched.status, data, after: mergeRead() }));
      await s.stop();
    `;
    const run = (port: number) =>
      JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script, dataDir, String(port)], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 })
          .trim()
          .split('\n')
          .pop()!,
      );
    try {
      // a first start writes the bootstrap objects: that reads it; a restart on the same port writes nothing
      const first = run(0);
      expect([first.atStart, first.applied, first.patched]).toEqual([true, 201, 200]);
      expect(run(first.port)).toEqual({ port: first.port, atStart: false, applied: 200, patched: 200, data: { k: 'v', l: 'w' }, after: true });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('staleness of dist/', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'specserver-build-'));
    mkdirSync(join(root, 'dist'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const record = () => {
    const files: Record<string, { size: number; mtimeMs: number }> = {};
    for (const f of ['src/a.ts', 'src/b.ts']) {
      const st = statSync(join(root, f));
      files[f] = { size: st.size, mtimeMs: st.mtimeMs };
    }
    writeFileSync(join(root, 'dist', 'inputs.json'), JSON.stringify({ files }));
  };

  it.each([
    ['nothing changed', () => {}, []],
    ['a file touched', () => utimesSync(join(root, 'src', 'a.ts'), new Date(), new Date(Date.now() + 5000)), ['src/a.ts']],
    ['a file rewritten', () => writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 22;\n'), ['src/b.ts']],
    ['a file deleted', () => rmSync(join(root, 'src', 'a.ts')), ['src/a.ts']],
  ] as const)('%s', (_name, change, stale) => {
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    record();
    change();
    expect(staleInputs(root)).toEqual(stale);
  });

  it('without a build, or with an unreadable record, is stale', () => {
    const empty = mkdtempSync(join(tmpdir(), 'specserver-build-'));
    try {
      expect(staleInputs(empty)).toEqual(['(no build yet)']);
      mkdirSync(join(empty, 'dist'));
      writeFileSync(join(empty, 'dist', 'inputs.json'), '{');
      expect(staleInputs(empty)).toEqual(['(unreadable dist/inputs.json)']);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
