// bench/fuzz: the long fuzz run. Starts an in-memory server, sends --count
// seeded fuzz cases (test/fuzz/harness.ts) over a real socket, and prints
// counts by status code and by generator, the slowest cases, and every
// failure class with its smallest reproducer. Exit code 1 when anything failed.
// Usage: npx tsx bench/fuzz/run.ts [--count 20000] [--seed N] [--only 12,40]
//        [--families object,yaml,...] [--timeout-ms 30000] [--slow-ms 15000] [--all-failures]

import { startServer } from '../../runtime/index.ts';
import { formatCounts, formatReport, GENERATORS, runFuzz } from '../../test/fuzz/harness.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const count = Number(arg('count') ?? 20_000);
const seed = Number(arg('seed') ?? Math.floor(Math.random() * 2 ** 31));
const only = arg('only')?.split(',').map(Number);
const families = arg('families')?.split(',');
const timeoutMs = Number(arg('timeout-ms') ?? 30_000);
const slowMs = Number(arg('slow-ms') ?? 15_000);

if (families) {
  const known = GENERATORS.map(([, n]) => n);
  for (const f of families) if (!known.includes(f)) throw new Error(`unknown family ${f}; known: ${known.join(', ')}`);
}

const server = await startServer({ insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] });
console.log(`fuzz: seed ${seed}, ${only ? `cases ${only.join(',')}` : `${count} cases`} against ${server.url}`);
const rssBefore = process.memoryUsage().rss;
let result;
try {
  result = await runFuzz({
    server,
    seed,
    count,
    only,
    families,
    timeoutMs,
    slowMs,
    batch: 200,
    log: (l) => process.stdout.write(`${l}\n`),
  });
} finally {
  await server.stop();
}
console.log('');
console.log(formatCounts(result));
console.log(`RSS: ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB after (server and harness share the process)`);
console.log('');
console.log(formatReport(result));
if (process.argv.includes('--all-failures')) {
  console.log('\nall failures:');
  for (const f of result.failures)
    console.log(`  case ${f.case.index} ${f.rule} ${f.status} ${f.case.generator}: ${f.case.method} ${JSON.stringify(f.case.path).slice(0, 160)} | ${f.message.slice(0, 160)}`);
}
process.exit(result.failures.length || result.aborted ? 1 : 0);
