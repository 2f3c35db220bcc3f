// The build's code cache (scripts/code-cache.mjs, dist/code-cache.js): the
// cache file's header ties V8's data to one body and checks the data itself,
// so a cache for another build, a damaged, truncated or missing file is left
// unused and the chunk compiles from source; the rewriting of import() calls
// touches calls only; each name a body reads of a module it requires gets a
// getter of its own in the shell; and the built dist/ starts with its cache in use, and
// still starts and serves (unaided by the cache) when the cache is damaged
// or the body changed after the cache was made.

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileBytes, readCacheFile } from '../../scripts/code-cache-runtime.mjs';
import { dynamicImportsVia, namesReadPerSpec, reassignedExports } from '../../scripts/code-cache.mjs';
import { staleInputs } from '../../scripts/build.mjs';
import { projectRoot } from '../support/clients.ts';

const sha1 = (s: string | Buffer) => createHash('sha1').update(s).digest();

describe('cache file', () => {
  const body = sha1('the body');
  const data = Buffer.from('v8 cached data, not really');
  const good = cacheFileBytes(data, body);
  const flipped = (at: number) => {
    const b = Buffer.from(good);
    b[at] ^= 0xff;
    return b;
  };
  it.each<[string, Buffer | undefined, Buffer, boolean]>([
    ['intact, for this body', good, body, true],
    ['made for another body (a rebuilt bundle)', good, sha1('another body'), false],
    ['a byte of the data damaged', flipped(good.length - 1), body, false],
    ['a byte of the data hash damaged', flipped(6 + 20), body, false],
    ['truncated', good.subarray(0, good.length - 3), body, false],
    ['only a header', good.subarray(0, 6 + 40), body, false],
    ['another format', flipped(0), body, false],
    ['empty', Buffer.alloc(0), body, false],
    ['missing', undefined, body, false],
  ])('%s: used %s', (_name, bytes, forBody, usable) => {
    const got = readCacheFile(bytes, forBody);
    if (usable) expect(got?.equals(data)).toBe(true);
    else expect(got).toBeUndefined();
  });
});

describe('import() calls in a body', () => {
  it.each([
    ['const m = await import("./a.js");', 'const m = await __import("./a.js");'],
    ['f(() => import(url("x")), import(`y`))', 'f(() => __import(url("x")), __import(`y`))'],
    ['const s = "import(\'./a.js\')"; // import("b")', 'const s = "import(\'./a.js\')"; // import("b")'],
    ['loader.import("x"); const o = { import(x) { return x; } };', 'loader.import("x"); const o = { import(x) { return x; } };'],
  ])('%s', async (code, want) => {
    expect(await dynamicImportsVia(code, '__import')).toBe(want);
  });
});

describe('names a body reads of the modules it requires (each gets a getter of its own in the shell)', () => {
  it.each<[string, string, Record<string, string[]>]>([
    ['a plain require', 'var import_hono = require("hono");\nnew import_hono.Context(r); import_hono.Hono;', { hono: ['Context', 'Hono'] }],
    ['through __toESM, and two locals for one module', 'var import_a = __toESM(require("a"));\nvar import_a2 = require("a");\nimport_a.default(); (0, import_a2.x)();', { a: ['default', 'x'] }],
    ['a $ in the local, a longer local with the same start', 'var import_$b = require("b");\nvar import_$b2 = require("c");\nimport_$b.y; import_$b2.z;', { b: ['y'], c: ['z'] }],
    ['a member of something else of the same name, __proto__', 'var import_d = require("d");\no.import_d.no; import_d.__proto__; import_d.yes;', { d: ['yes'] }],
    ['required, nothing read', 'var import_e = require("e");', { e: [] }],
  ])('%s', (_name, body, want) => {
    expect(Object.fromEntries([...namesReadPerSpec(body)].map(([spec, names]) => [spec, [...names]]))).toEqual(want);
  });
});

describe('exports a shell would freeze', () => {
  const body = (decl: string) => `__export(x_exports, {\n  a: () => a,\n  b: () => b\n});\nmodule.exports = __toCommonJS(x_exports);\n${decl}\n`;
  it.each([
    ['constants and functions', 'const a = 1;\nfunction b() { return a; }', []],
    ['a let assigned again', 'let a = 1;\nfunction b() { a = 2; }', ['a']],
    ['a var counted up', 'var a = 1;\nvar b = 0;\nfunction c() { b++; }', ['b']],
    ['a compound assignment', 'let a = 1;\nlet b = 2;\nfunction c() { a += 1; }', ['a']],
    ['a property of the same name, a comparison', 'const a = {};\nconst b = 1;\nfunction c(o) { o.a = 1; return b == 1 || a === b; }', []],
  ])('%s', (_name, decl, want) => {
    expect(reassignedExports(body(decl))).toEqual(want);
  });
});

/** Runs the package at root in a fresh node: a start (plain HTTP, in memory), a lazily loaded validator and YAML, /readyz; the cache report. */
function startIn(root: string): { ready: number; created: number; invalid: number; report: { cacheFile: string; used: boolean }[] } {
  const script = `
    const { startServer } = await import(${JSON.stringify(join(root, 'dist', 'index.js'))});
    const { codeCacheReport } = await import(${JSON.stringify(join(root, 'dist', 'code-cache.js'))});
    const s = await startServer({ insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] });
    const ready = (await fetch(s.url + '/readyz')).status;
    const created = (await s.app.request('/api/v1/namespaces/default/configmaps', {
      method: 'POST', headers: { 'content-type': 'application/yaml' }, body: 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: y\\n',
    })).status;
    const invalid = (await s.app.request('/apis/batch/v1/namespaces/default/jobs', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'bad' }, spec: { parallelism: 'many' } }),
    })).status;
    await s.stop();
    console.log(JSON.stringify({ ready, created, invalid, report: codeCacheReport() }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('the built package', () => {
  let copy: string;
  beforeAll(() => {
    const built = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--if-stale'], { cwd: projectRoot, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(staleInputs()).toEqual([]);
    // a copy of the package to damage: its dist/, and the rest linked
    copy = mkdtempSync(join(tmpdir(), 'specserver-code-cache-'));
    cpSync(join(projectRoot, 'dist'), join(copy, 'dist'), { recursive: true });
    for (const f of ['package.json', 'generated', 'node_modules']) symlinkSync(join(projectRoot, f), join(copy, f));
  }, 120_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('with --enable-source-maps, positions in a stack are the TypeScript sources', () => {
    const script = `
      const { startServer } = await import(${JSON.stringify(join(projectRoot, 'dist', 'index.js'))});
      try { await startServer({ insecureServeHTTP: true, port: -5 }); } catch (e) { console.log(JSON.stringify(e.stack)); }
    `;
    const out = execFileSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    const stack = JSON.parse(out.trim().split('\n').pop()!) as string;
    expect(stack).toContain('runtime/server/listen.ts');
  });

  const cacheFiles = (root: string) => readdirSync(join(root, 'dist', 'chunks')).filter((f) => f.endsWith('.v8cache'));
  const works = { ready: 200, created: 201, invalid: 400 };

  it('has a cache file for the start-up chunk, and a start uses it', () => {
    expect(cacheFiles(projectRoot).length).toBeGreaterThan(0);
    const r = startIn(projectRoot);
    expect(r).toMatchObject(works);
    expect(r.report.length).toBeGreaterThan(0);
    expect(r.report.every((c) => c.used)).toBe(true);
  });

  it("gives each name the start-up body reads of a module a getter of its own (hono's Context, read per request)", () => {
    const shells = readdirSync(join(projectRoot, 'dist', 'chunks'))
      .filter((f) => f.endsWith('.body.cjs'))
      .map((f) => readFileSync(join(projectRoot, 'dist', 'chunks', f.replace(/\.body\.cjs$/, '.js')), 'utf8'));
    const hono = shells.map((s) => /import \* as (d\d+) from "hono";/.exec(s)).find(Boolean);
    expect(hono).toBeTruthy();
    expect(shells.join('\n')).toContain(`Context: () => ${hono![1]}.Context`);
  });

  it.each<[string, (cacheFile: string, bodyFile: string) => void]>([
    ['a damaged cache file', (cache) => writeFileSync(cache, Buffer.from(readFileSync(cache).map((b, i) => (i > 100 && i % 97 === 0 ? b ^ 0x5a : b))))],
    ['a truncated cache file', (cache) => writeFileSync(cache, readFileSync(cache).subarray(0, 5000))],
    ['no cache file', (cache) => rmSync(cache)],
    ['a body changed since the cache was made', (_cache, body) => appendFileSync(body, '\n// changed\n')],
  ])('%s: the start compiles from source and works', (_name, damage) => {
    // the start-up chunk's (the largest body)
    const [file] = cacheFiles(copy).sort((a, b) => statSync(join(copy, 'dist', 'chunks', b)).size - statSync(join(copy, 'dist', 'chunks', a)).size);
    const cache = join(copy, 'dist', 'chunks', file);
    const saved = readFileSync(cache);
    const body = cache.replace(/\.v8cache$/, '.body.cjs');
    const savedBody = readFileSync(body);
    try {
      damage(cache, body);
      const r = startIn(copy);
      expect(r).toMatchObject(works);
      // that chunk compiled from source; the others still used theirs
      expect(r.report.filter((c) => !c.used).map((c) => c.cacheFile)).toEqual([cache]);
    } finally {
      writeFileSync(cache, saved);
      writeFileSync(body, savedBody);
    }
  });
});

describe('what loads on first use works as the first request of the compiled package', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first' }, data: { k: 'v' } };
  it.each<[string, string, string]>([
    [
      'a YAML body',
      `{ method: 'POST', headers: { 'content-type': 'application/yaml' }, body: 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: first\\n' }`,
      '/api/v1/namespaces/default/configmaps',
    ],
    ['a protobuf GET', `{ headers: { accept: 'application/vnd.kubernetes.protobuf' } }`, '/api/v1/namespaces/default'],
    [
      'a server-side apply',
      `{ method: 'PATCH', headers: { 'content-type': 'application/apply-patch+yaml' }, body: ${JSON.stringify(JSON.stringify(cm))} }`,
      '/api/v1/namespaces/default/configmaps/first?fieldManager=test',
    ],
    ['an OpenAPI v3 document', '{}', '/openapi/v3/api/v1'],
    ['a Table GET', `{ headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }`, '/api/v1/namespaces'],
  ])('%s', (_name, init, path) => {
    const script = `
      const { startServer } = await import(${JSON.stringify(join(projectRoot, 'dist', 'index.js'))});
      const s = await startServer({ insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] });
      const r = await s.app.request(${JSON.stringify(path)}, ${init});
      const bytes = Buffer.from(await r.arrayBuffer());
      await s.stop();
      console.log(JSON.stringify({ status: r.status, type: r.headers.get('content-type'), head: bytes.subarray(0, 4).toString('latin1'), text: bytes.toString('utf8') }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { status: number; type: string; head: string; text: string };
    expect(r.status, r.text).toBeLessThan(300);
    if (path.startsWith('/openapi')) expect(JSON.parse(r.text).openapi).toMatch(/^3\./);
    else if (init.includes('protobuf')) expect(r.head).toBe('k8s\0');
    else if (init.includes('Table'))
      expect(JSON.parse(r.text)).toMatchObject({ kind: 'Table', rows: expect.arrayContaining([expect.objectContaining({ cells: expect.arrayContaining(['default']) })]) });
    else expect(JSON.parse(r.text)).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'first' } });
  });
});
