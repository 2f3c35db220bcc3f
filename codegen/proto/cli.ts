// Runs the protobuf codegen standalone:
//   npx tsx codegen/proto/cli.ts [specsDir=api-specs] [outDir=generated]
import { resolve } from 'node:path';
import { generateProtoDetailed } from './index.ts';

const specs = resolve(process.argv[2] ?? 'api-specs');
const out = resolve(process.argv[3] ?? 'generated');
const t0 = performance.now();
const r = await generateProtoDetailed(specs, out);
for (const w of r.model.warnings) console.warn(`warning: ${w}`);
console.log(`proto: ${r.model.messages.size} messages, ${r.model.kinds.size} kinds; ${r.written.length} files written, ${r.removed.length} removed in ${Math.round(performance.now() - t0)} ms`);
