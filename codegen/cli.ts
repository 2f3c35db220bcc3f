// The codegen command line: `tsx codegen/cli.ts [--specs DIR] [--out DIR]`
// (defaults api-specs/ and generated/ of the project). Prints what it wrote
// and how long it took; on a bad spec prints the messages (file and JSON
// path) and exits 1.
import { performance } from 'node:perf_hooks';
import { generate } from './generate.ts';
import { CodegenError } from './load/errors.ts';
import { parseArgs } from './cli-args.ts';

async function main(): Promise<number> {
  const t0 = performance.now();
  let args: { specs: string; out: string };
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  try {
    const r = await generate(args.specs, args.out);
    for (const n of r.model.notes ?? []) console.log(`codegen: note: ${n}`);
    const ms = Math.round(performance.now() - t0);
    console.log(
      `codegen: ${r.model.resources.length} resources in ${r.model.groupVersions.length} group-versions, ${r.model.schemas.size} schemas; ${r.files} files (${r.written} written, ${r.removed} removed) in ${ms} ms`,
    );
    return 0;
  } catch (e) {
    if (e instanceof CodegenError) {
      console.error(`codegen failed:\n${e.message}`);
      return 1;
    }
    throw e;
  }
}

process.exitCode = await main();
