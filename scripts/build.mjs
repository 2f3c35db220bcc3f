// The build step: compiles the server (runtime/ and the generated/ it imports)
// to JavaScript in dist/, so that `npm start` and `import 'specserver'` run
// without compiling TypeScript at run time. esbuild bundles the two entry
// points (dist/index.js: startServer; dist/cli.js: the command line) with
// code splitting: what is imported on first use (validators per kind,
// protobuf messages per group-version, the X.509 code) stays in chunks of its own and
// is loaded only then. Packages from node_modules are not bundled. The chunk
// every start loads then runs with V8's cached data, made by a start at build
// time (scripts/code-cache.mjs): node 20 caches no compiled ES modules.
//
//   node scripts/build.mjs             build (run by `npm ci` through the prepare script)
//   node scripts/build.mjs --if-stale  build only when a source file changed since the last build
//                                      (run before `npm start`); exit 0 either way
//   node scripts/build.mjs --check     exit 1 (with the changed files) when dist/ is stale
//
// dist/inputs.json lists every source file the bundle was made from (and this
// script) with its size and modification time; a file edited, added to an import, moved or
// deleted since makes the build stale. It is written last, so an interrupted
// build is stale too.

import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedChunks, installLoader, produceCaches, startupChunks, wrapChunk } from './code-cache.mjs';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The source files whose size or modification time differ from the last build's (a note when there was none). */
export function staleInputs(root = projectRoot) {
  const inputsFile = join(root, 'dist', 'inputs.json');
  if (!existsSync(inputsFile)) return ['(no build yet)'];
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    return ['(unreadable dist/inputs.json)'];
  }
  const changed = [];
  for (const [file, { size, mtimeMs }] of Object.entries(recorded.files)) {
    let st;
    try {
      st = statSync(join(root, file));
    } catch {
      changed.push(file);
      continue;
    }
    if (st.size !== size || st.mtimeMs !== mtimeMs) changed.push(file);
  }
  return changed;
}

/** `text` with every character beyond ASCII written as its \\u escape (UTF-16 code units). */
export function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Builds dist/ afresh; returns how many source files went in. */
export async function build(root = projectRoot) {
  const { build: esbuild } = await import('esbuild');
  const outdir = join(root, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: { index: 'runtime/index.ts', cli: 'runtime/cli.ts' },
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // no keepNames: it wraps every function and class in a call that redefines its `name` (2,400 in the
    // main chunk, run at import and again for each closure made, also the closures made per request:
    // about 10 ms of a start, MBs of heap and about 6 us of CPU per GET). Nothing reads a function's
    // name; errors set theirs, and esbuild renames only names two modules share
    keepNames: false,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  // esbuild writes strings, regular expressions and names as ASCII (charset
  // 'ascii'), but keeps comments as written; one character beyond Latin-1
  // makes V8 hold a file's whole source (which it keeps for lazy
  // compilation) two bytes a character, so comments are made ASCII too
  for (const out of Object.keys(result.metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    const file = join(root, out);
    const text = readFileSync(file, 'utf8');
    if (/[^\x00-\x7f]/.test(text)) writeFileSync(file, asciiOnly(text));
  }
  // the chunks every start loads run with V8's cached data (scripts/code-cache.mjs)
  installLoader(root);
  for (const chunk of new Set([...startupChunks(result.metafile, ['dist/index.js', 'dist/cli.js']), ...generatedChunks(result.metafile)])) {
    if (result.metafile.outputs[chunk].bytes < 50_000) continue;
    await wrapChunk(root, chunk, result.metafile.outputs[chunk].exports);
  }
  produceCaches(root);
  const files = {};
  // the build script itself counts: a changed build makes a different dist/
  for (const file of [...Object.keys(result.metafile.inputs), 'scripts/build.mjs', 'scripts/code-cache.mjs', 'scripts/code-cache-runtime.mjs'].sort()) {
    const st = statSync(join(root, file));
    files[file] = { size: st.size, mtimeMs: st.mtimeMs };
  }
  // what each output file imports, statically or on first use (the tests check what start-up loads)
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile));
  writeFileSync(join(outdir, 'inputs.json'), JSON.stringify({ files }, null, 1) + '\n');
  return Object.keys(files).length;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const mode = process.argv[2];
  if (mode === '--check') {
    const stale = staleInputs();
    if (stale.length) {
      console.error(`dist/ is stale (npm run build): ${stale.slice(0, 5).join(', ')}${stale.length > 5 ? ', ...' : ''}`);
      process.exit(1);
    }
  } else if (mode === '--if-stale') {
    const stale = staleInputs();
    if (stale.length) {
      console.error(`rebuilding dist/: ${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', ...' : ''} changed`);
      await build();
    }
  } else if (mode === undefined) {
    const n = await build();
    console.error(`dist/: ${n} source files compiled`);
  } else {
    console.error(`unknown argument ${mode}; use --if-stale, --check or nothing`);
    process.exit(2);
  }
}
