// Evaluations per second of compiled CEL rules on schema-typed objects (the
// hot path: compile once, evaluate many times). Usage:
//   npx tsx bench/cel/evaluate.ts [iterations]
import { compileRule, type JSONSchema } from '../../runtime/cel/index.ts';

const schema: JSONSchema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    name: { type: 'string', maxLength: 253 },
    memory: { type: 'string', maxLength: 64 },
    endpoint: { type: 'string', maxLength: 2048 },
  },
};
const objects = Array.from({ length: 64 }, (_, i) => ({
  replicas: i % 7,
  maxReplicas: 5,
  name: i % 2 ? 'alpha-' + i : 'beta-' + i,
  memory: `${(i % 4) + 1}Gi`,
  endpoint: `https://svc-${i}.example.com:${8000 + i}/api`,
}));

const rules: [string, string][] = [
  ['typed comparison + startsWith', "self.replicas <= self.maxReplicas && self.name.startsWith('a')"],
  ['quantity + url', "quantity(self.memory).isLessThan(quantity('3Gi')) && url(self.endpoint).getScheme() == 'https'"],
];

const n = Number(process.argv[2] ?? 200_000);
for (const [label, expr] of rules) {
  const c = compileRule(expr, { vars: { self: schema } });
  if (!c.ok) throw new Error(c.errors.map((e) => e.message).join('; '));
  const p = c.program;
  let trues = 0;
  for (let i = 0; i < 20_000; i++) p.evaluate({ self: objects[i & 63] });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const r = p.evaluate({ self: objects[i & 63] });
    if (r.ok && r.value === true) trues++;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`${label}: ${Math.round(n / secs).toLocaleString('en-US')} evaluations/s (${n} in ${secs.toFixed(2)} s; ${trues} true; estimated cost ${c.costEstimate})`);
}

// Compile cost (cache miss) for reference.
{
  const t0 = process.hrtime.bigint();
  const m = 2000;
  for (let i = 0; i < m; i++) {
    const r = compileRule(`self.replicas <= self.maxReplicas + ${i} && self.name.startsWith('a')`, { vars: { self: schema } });
    if (!r.ok) throw new Error('compile');
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`compile (cache miss): ${Math.round(m / secs).toLocaleString('en-US')} compilations/s`);
}
