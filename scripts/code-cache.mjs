// Build time half of the code cache: V8 compiles the server's main chunk (a
// megabyte of JavaScript) at every start, and node 20 has no compile cache
// for ES modules. The build therefore rewrites the larger chunks that every
// start loads (the main chunk; the registry and merge schema the generated
// API's loader imports): each body becomes CommonJS-shaped code in <chunk>.body.cjs, run as
// a vm.Script (which can take V8's cached data), and <chunk>.js a small ES
// module that imports what the body needs, runs it through
// dist/code-cache.js and exports what the chunk exported. What the body
// requires it gets as esbuild's interop expects, an object of getters over
// the module's namespace, one getter of its own per name the body reads
// (optimized code inlines it; a getter shared by every name reads by key, in
// the runtime: about 200 ns a read, and a GET makes such reads). Then a restart in
// a child process (on a scratch directory a first start made) compiles what
// starting runs, and its cached data is written beside each body as
// <chunk>.v8cache. The chunk as esbuild made it stays as <chunk>.esm.js, for
// node --enable-source-maps (which maps no vm code).

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The chunks that the entry points import statically (transitively), largest first; paths as in the metafile. */
export function startupChunks(metafile, entries) {
  const seen = new Set();
  const visit = (out) => {
    for (const imp of metafile.outputs[out]?.imports ?? []) {
      if (imp.kind !== 'import-statement' || imp.external || seen.has(imp.path)) continue;
      seen.add(imp.path);
      visit(imp.path);
    }
  };
  for (const e of entries) visit(e);
  return [...seen].sort((a, b) => metafile.outputs[b].bytes - metafile.outputs[a].bytes);
}

/**
 * The chunks the generated API's loader imports at every start (the
 * registry, the merge schema, the validator and protobuf indexes: the
 * dynamic imports of runtime/server/generated-api.ts).
 */
export function generatedChunks(metafile) {
  const wanted = new Set((metafile.inputs['runtime/server/generated-api.ts']?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
  return Object.keys(metafile.outputs).filter((out) => wanted.has(metafile.outputs[out].entryPoint));
}

/** Exported names of a CommonJS body whose binding is assigned after its declaration (an ES module shell would export a stale value). */
export function reassignedExports(body) {
  const out = [];
  for (const [, name, local] of body.matchAll(/^ {2}([\w$]+): \(\) => ([\w$]+)[,\n]/gm)) {
    const escaped = local.replace(/\$/g, '\\$');
    const writes = body.match(
      new RegExp(`(?<![\\w$.])${escaped}\\s*(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?)?=(?![=>])|(?<![\\w$.])${escaped}\\s*(?:\\+\\+|--)|(?:\\+\\+|--)${escaped}(?![\\w$])`, 'g'),
    );
    if ((writes?.length ?? 0) > 1) out.push(name);
  }
  return out;
}

/** Rewrites one chunk (see the header): <chunk>.js becomes the ES module shell, the body goes to <chunk>.body.cjs. */
export async function wrapChunk(root, chunk, exportNames) {
  const { transform } = await import('esbuild');
  const file = join(root, chunk);
  const bodyFile = file.replace(/\.js$/, '.body.cjs');
  // the chunk's source map goes in inline, so that the body's map leads to the TypeScript sources
  const mapFile = `${file}.map`;
  const code =
    readFileSync(file, 'utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, '') +
    (existsSync(mapFile) ? `//# sourceMappingURL=data:application/json;base64,${readFileSync(mapFile).toString('base64')}\n` : '');
  const cjs = await transform(code, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    charset: 'ascii',
    sourcemap: 'external',
    sourcefile: basename(file),
    define: { 'import.meta.url': '__chunkURL' },
    logLevel: 'error',
  });
  if (cjs.warnings.length) throw new Error(`${chunk}: ${cjs.warnings.map((w) => w.text).join('; ')}`);
  const reassigned = reassignedExports(cjs.code);
  if (reassigned.length) throw new Error(`${chunk}: exports assigned after their declaration (${reassigned.join(', ')}); leave this chunk unwrapped`);
  const specs = [...new Set([...cjs.code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))];
  // the wrapper shares the first line with the code, so the map's lines stay right
  const body = `(function (exports, require, module, __chunkURL, __import) {${await dynamicImportsVia(cjs.code, '__import')}\n})\n//# sourceMappingURL=${basename(bodyFile)}.map\n`;
  // ASCII only (latin1 is how the loader reads it)
  if (/[^\x00-\x7f]/.test(body)) throw new Error(`${bodyFile}: characters beyond ASCII`);
  writeFileSync(bodyFile, body);
  copyFileSync(file, file.replace(/\.js$/, '.esm.js'));
  writeFileSync(`${bodyFile}.map`, cjs.map);
  const lines = [
    "// The start-up chunk's shell: its body is dist/chunks/<this>.body.cjs, loaded with V8's cached data (scripts/code-cache.mjs).",
    `import { loadChunkBody } from '${posix.relative(posix.dirname(chunk), 'dist/code-cache.js').replace(/^(?!\.)/, './')}';`,
  ];
  const read = namesReadPerSpec(cjs.code);
  const deps = specs.map((s, i) => {
    lines.push(`import * as d${i} from ${JSON.stringify(s)};`);
    // a getter of its own per name the body reads: one static property load, which optimized code inlines
    const getters = [...(read.get(s) ?? [])].map((n) => `${n}: () => d${i}.${n}`);
    return `${JSON.stringify(s)}: esm(d${i}, { ${getters.join(', ')} })`;
  });
  // what esbuild's CommonJS interop expects of a required ES module: __esModule, and default as the default export;
  // each export a getter (live bindings), the names the body reads with their own getters, the rest read by key
  // (a getter shared by every name reads the namespace by key: about 200 ns a read, in the runtime, never inlined)
  lines.push(
    'function esm(ns, getters) {',
    '  const m = { __esModule: true };',
    '  for (const k of Object.keys(ns)) Object.defineProperty(m, k, { get: Object.hasOwn(getters, k) ? getters[k] : () => ns[k], enumerable: true });',
    '  return m;',
    '}',
  );
  // import() in the body is this module's: V8 ties a script's own import() to the process that compiled it, so one from cached data fails
  // node maps no positions of vm code to sources: with --enable-source-maps the chunk runs as the build made it
  const esmName = basename(file).replace(/\.js$/, '.esm.js');
  lines.push(`const m = process.sourceMapsEnabled === true ? await import('./${esmName}') : loadChunkBody(import.meta.url, { ${deps.join(', ')} }, (spec) => import(spec));`);
  for (const name of exportNames) lines.push(`export const ${name} = m.${name};`);
  writeFileSync(file, lines.join('\n') + '\n');
}

/**
 * Per module a CommonJS body requires, the property names it reads of it
 * (`import_x.name` where `var import_x = require("spec")`, also through
 * `__toESM(...)`): names that are identifiers (not `__proto__`, which an object
 * literal would take for its prototype), in order of first use.
 */
export function namesReadPerSpec(body) {
  const out = new Map();
  for (const [, local, spec] of body.matchAll(/\bvar ([\w$]+) = (?:__toESM\()?require\("([^"]+)"\)/g)) {
    const names = out.get(spec) ?? new Set();
    out.set(spec, names);
    const escaped = local.replace(/\$/g, '\\$');
    for (const [, name] of body.matchAll(new RegExp(`(?<![\\w$.])${escaped}\\.([A-Za-z_$][\\w$]*)`, 'g'))) if (name !== '__proto__') names.add(name);
  }
  return out;
}

/** code with every import(...) call made a call of the function named fn (found by TypeScript's parser, so strings and comments are left alone). */
export async function dynamicImportsVia(code, fn) {
  const ts = (await import('typescript')).default;
  const file = ts.createSourceFile('chunk.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const at = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) at.push(node.expression.getStart(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = code;
  for (const pos of at.sort((a, b) => b - a)) out = out.slice(0, pos) + fn + out.slice(pos + 'import'.length);
  return out;
}

/** Starts the compiled server in a child process (a first start, then a restart) and writes the cache files of what it loaded; their paths. */
export function produceCaches(root) {
  const scratch = mkdtempSync(join(tmpdir(), 'specserver-code-cache-'));
  // one process makes the data directory (a first start); a second restarts on it, and what that compiled is cached:
  // no more than a restart runs (the data becomes heap at every start), and what a first start adds compiles on first use;
  // and the request that says the server is up, GET /readyz over HTTPS (anonymous), whose code would otherwise compile
  // while the first probe waits
  const script = `
    const { get } = await import('node:https');
    const { startServer } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)});
    const { writeCodeCaches } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'code-cache.js')).href)});
    const s = await startServer({ dataDir: ${JSON.stringify(join(scratch, 'data'))}, log: () => {} });
    const status = await new Promise((resolve, reject) => get(s.url + '/readyz', { ca: s.caPEM }, (r) => r.resume().on('end', () => resolve(r.statusCode))).on('error', reject));
    if (status !== 200) throw new Error('/readyz answered ' + status);
    const written = process.argv[1] === 'write' ? writeCodeCaches() : [];
    await s.stop();
    console.log(JSON.stringify(written));
  `;
  try {
    let written = [];
    for (const step of ['first', 'write']) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, step], { cwd: root, encoding: 'utf8' });
      // without cache files every start compiles the chunks, as before: slower, not wrong
      if (r.status !== 0) {
        console.error(`no code cache: the start that makes it failed (${r.status}): ${r.stderr}`);
        return [];
      }
      written = JSON.parse(r.stdout.trim().split('\n').pop());
    }
    return written;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Copies the runtime loader into dist/ (dist/code-cache.js). */
export function installLoader(root) {
  copyFileSync(join(root, 'scripts', 'code-cache-runtime.mjs'), join(root, 'dist', 'code-cache.js'));
}
