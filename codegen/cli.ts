// The codegen command line: `tsx codegen/cli.ts [--specs DIR] [--out DIR]`
// (defaults api-specs/ and generated/ of the project). Prints what it wrote
// and how long it took; on a bad spec prints the messages (file and JSON
// path) and exits 1.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { generate } from './generate.ts';
import { CodegenError, CodegenErrors } from './load/errors.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function parseArgs(argv: string[]): { specs: string; out: string } {
  let specs = join(root, 'api-specs');
  let out = join(root, 'generated');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a directory`);
      return resolve(v);
    };
    if (a === '--specs') specs = value();
    else if (a === '--out') out = value();
    else if (a.startsWith('--specs=')) specs = resolve(a.slice(8));
    else if (a.startsWith('--out=')) out = resolve(a.slice(6));
    else throw new Error(`unknown argument ${JSON.stringify(a)} (usage: codegen [--specs DIR] [--out DIR])`);
  }
  return { specs, out };
}

async function main(): Promise<number> {
  const t0 = performance.now();
  let args: { specs: string; out: string };
  try { args = parseArgs(process.argv.slice(2)); } catch (e) { console.error((e as Error).message); return 2; }
  try {
    const r = await generate(args.specs, args.out);
    const ms = Math.round(performance.now() - t0);
    console.log(`codegen: ${r.model.resources.length} resources in ${r.model.groupVersions.length} group-versions, ${r.model.schemas.size} schemas; ${r.files} files (${r.written} written, ${r.removed} removed) in ${ms} ms`);
    return 0;
  } catch (e) {
    if (e instanceof CodegenError || e instanceof CodegenErrors) { console.error(`codegen failed:\n${e.message}`); return 1; }
    throw e;
  }
}

process.exitCode = await main();
