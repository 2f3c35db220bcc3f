// The fuzz harness: generates seeded cases (each from its own generator
// derived from the seed and the case index, so any case replays alone),
// sends them over a real socket to a running server, judges each response
// (oracle.ts), checks the sentinel objects after risky cases and after
// every batch, checks /readyz after every batch, and groups failures by
// cause with the smallest reproducer of each. Used by test/fuzz/fuzz.test.ts
// and bench/fuzz/run.ts.

import { METHODS } from 'node:http';
import type { RunningServer } from '../../runtime/server/start.ts';
import { type KubeProtobuf, loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import type { FuzzCase, GenContext, Generator, Target } from './case.ts';
import { send, type SendResult } from './client.ts';
import { jsonText, objectMutation, protobufGarbage, yamlAttack } from './gen-bodies.ts';
import { patches } from './gen-patch.ts';
import { methodMatrix, oddPath, sentinelPath } from './gen-paths.ts';
import { oddHeaders, queryParams, subresources } from './gen-requests.ts';
import { findKind, objectPath, storedKinds } from './kinds.ts';
import { validObject } from './objects.ts';
import { judge, normalizeMessage } from './oracle.ts';
import { Rng } from './rng.ts';
import { Sentinels } from './sentinels.ts';

/** Generators by family, with their weights. */
export const GENERATORS: readonly (readonly [number, string, Generator])[] = [
  [16, 'object', objectMutation],
  [7, 'json-text', jsonText],
  [8, 'yaml', yamlAttack],
  [7, 'protobuf', protobufGarbage],
  [12, 'query', queryParams],
  [9, 'path', oddPath],
  [6, 'sentinel', sentinelPath],
  [14, 'patch', patches],
  [8, 'headers', oddHeaders],
  [5, 'subresource', subresources],
  [4, 'method', methodMatrix],
];

export function generateCase(seed: number, index: number, ctx: GenContext, families?: string[]): FuzzCase {
  const rng = Rng.forCase(seed, index);
  const pool = families?.length ? GENERATORS.filter(([, name]) => families.includes(name)) : GENERATORS;
  const gen = rng.weighted(pool.map(([w, , g]) => [w, g] as const));
  const c: FuzzCase = { index, ...gen(rng, ctx, index) };
  // bytes outside printable ASCII are not valid in a request target (RFC 9112, 3986): the HTTP
  // parser may refuse the request before the API server sees it, with a plain 400
  if (/[^\x21-\x7e]/.test(c.path)) c.protocolReject = true;
  // so may a method Node's HTTP parser does not know (Go's server would pass it on)
  if (!METHODS.includes(c.method)) c.protocolReject = true;
  return c;
}

export interface Failure {
  rule: string;
  message: string;
  status: number;
  case: FuzzCase;
  /** Response body start. */
  response: string;
}

export interface FailureClass {
  key: string;
  rule: string;
  status: number;
  count: number;
  generators: Set<string>;
  /** The failing case with the smallest request. */
  example: Failure;
}

export interface RunResult {
  seed: number;
  count: number;
  sent: number;
  clientRefused: number;
  byStatus: Map<number, number>;
  byGenerator: Map<string, Map<number, number>>;
  failures: Failure[];
  classes: FailureClass[];
  slowest: { ms: number; c: FuzzCase; status: number }[];
  elapsedMs: number;
  aborted?: string;
}

export interface RunOptions {
  server: RunningServer;
  seed: number;
  count: number;
  /** Only these case indices (replay). */
  only?: number[];
  /** Only these generator families. */
  families?: string[];
  batch?: number;
  /** How long to wait for a response before calling it lost (ms). */
  timeoutMs?: number;
  /** A response slower than this is a failure: the request held the server (ms; generous on purpose). */
  slowMs?: number;
  log?: (line: string) => void;
}

const FUZZ_NS = 'fuzz';

async function call(server: RunningServer, method: string, path: string, body?: unknown): Promise<number> {
  const res = await server.app.request(path, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The patch targets: fz-target of every creatable stored kind in the run's namespace (names fixed by some kinds). */
function targetList(): Target[] {
  return storedKinds
    .filter((k) => k.def.verbs.includes('create') && k.def.verbs.includes('patch'))
    .map((kind) => {
      const object = validObject(kind, 'fz-target', FUZZ_NS);
      return { kind, name: object.metadata.name, object };
    });
}

/** (Re)creates what the run needs: its namespace and the patch targets. Existing ones are left as they are. */
async function ensureFixtures(server: RunningServer, targets: Target[]): Promise<void> {
  await call(server, 'POST', '/api/v1/namespaces', validObject(findKind('v1', 'namespaces'), FUZZ_NS, ''));
  for (const t of targets) {
    const path = objectPath(t.kind, FUZZ_NS, t.name).replace(/\/[^/]+$/, '');
    await call(server, 'POST', path, t.object);
  }
}

async function ready(url: string): Promise<{ ok: boolean; detail: string }> {
  try {
    const res = await fetch(`${url}/readyz?verbose`, { signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    return {
      ok: res.status === 200,
      detail: `${res.status} ${text
        .split('\n')
        .filter((l) => l.includes('failed'))
        .join('; ')
        .slice(0, 300)}`,
    };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
}

function bodySize(c: FuzzCase): number {
  return (c.body?.length ?? 0) + c.path.length + Object.entries(c.headers).reduce((s, [k, v]) => s + k.length + v.length, 0);
}

export async function runFuzz(opts: RunOptions): Promise<RunResult> {
  const t0 = performance.now();
  const { server, seed } = opts;
  const log = opts.log ?? (() => {});
  let codec: KubeProtobuf | undefined;
  try {
    codec = await loadKubeProtobuf();
  } catch {
    codec = undefined;
  }
  const sentinels = new Sentinels(server.app);
  await sentinels.renew();
  const targets = targetList();
  await ensureFixtures(server, targets);
  const ctx: GenContext = { fuzzNs: FUZZ_NS, sentinels: sentinels.names, targets, protobuf: codec };

  const result: RunResult = {
    seed,
    count: opts.count,
    sent: 0,
    clientRefused: 0,
    byStatus: new Map(),
    byGenerator: new Map(),
    failures: [],
    classes: [],
    slowest: [],
    elapsedMs: 0,
  };
  const fail = (f: Failure) => result.failures.push(f);
  const indices = opts.only ?? Array.from({ length: opts.count }, (_, i) => i);
  const batch = opts.batch ?? 100;
  let transportErrorsInARow = 0;

  for (let b = 0; b < indices.length; b += batch) {
    const slice = indices.slice(b, b + batch);
    for (const index of slice) {
      const c = generateCase(seed, index, ctx, opts.families);
      const r: SendResult = await send(server.url, c, { timeoutMs: opts.timeoutMs });
      const v = judge(c, r, codec);
      if (r.kind === 'client-refused') {
        result.clientRefused++;
        continue;
      }
      const slowMs = opts.slowMs ?? 15_000;
      if (!v.rule && r.ms > slowMs) {
        v.rule = 'slow-response';
        v.message = `answered ${v.status} after ${r.ms} ms (more than ${slowMs} ms)`;
      }
      result.sent++;
      result.byStatus.set(v.status, (result.byStatus.get(v.status) ?? 0) + 1);
      const fam = c.generator;
      const g = result.byGenerator.get(fam) ?? new Map<number, number>();
      g.set(v.status, (g.get(v.status) ?? 0) + 1);
      result.byGenerator.set(fam, g);
      result.slowest.push({ ms: r.ms, c, status: v.status });
      result.slowest.sort((x, y) => y.ms - x.ms);
      result.slowest.length = Math.min(result.slowest.length, 10);
      if (v.rule) {
        fail({ rule: v.rule, message: v.message, status: v.status, case: c, response: r.kind === 'response' ? r.res.body.subarray(0, 300).toString('utf8') : '' });
      }
      transportErrorsInARow = r.kind === 'no-response' ? transportErrorsInARow + 1 : 0;
      if (transportErrorsInARow >= 10) {
        result.aborted = `10 requests in a row got no response (last: case ${index})`;
        break;
      }
      if (c.risky) {
        const problems = await sentinels.check();
        if (problems.length) {
          fail({ rule: 'sentinel-damaged', message: problems.join('; '), status: v.status, case: c, response: r.kind === 'response' ? r.res.body.subarray(0, 300).toString('utf8') : '' });
          await sentinels.renew();
          ctx.sentinels = sentinels.names;
        }
      }
    }
    if (result.aborted) break;
    // after every batch: readiness, sentinels, and the fixtures back in place
    const last = slice[slice.length - 1];
    const rz = await ready(server.url);
    if (!rz.ok) {
      const marker: FuzzCase = { index: last, generator: 'batch', note: `cases ${slice[0]}..${last}`, method: 'GET', path: '/readyz', headers: {} };
      fail({ rule: 'not-ready-after-batch', message: rz.detail, status: 0, case: marker, response: '' });
      // give it a moment, then stop if it stays down
      let back = false;
      for (let i = 0; i < 20 && !back; i++) {
        await new Promise((r) => setTimeout(r, 500));
        back = (await ready(server.url)).ok;
      }
      if (!back) {
        result.aborted = `/readyz not 200 after cases ${slice[0]}..${last}: ${rz.detail}`;
        break;
      }
    }
    const problems = await sentinels.check();
    if (problems.length) {
      const marker: FuzzCase = { index: last, generator: 'batch', note: `one of cases ${slice[0]}..${last} (not a risky one)`, method: 'GET', path: '(sentinels)', headers: {} };
      fail({ rule: 'sentinel-damaged', message: problems.join('; '), status: 0, case: marker, response: '' });
      await sentinels.renew();
      ctx.sentinels = sentinels.names;
    }
    await ensureFixtures(server, targets);
    log(`fuzz: ${Math.min(b + batch, indices.length)}/${indices.length} cases, ${result.failures.length} failures`);
  }

  result.classes = classify(result.failures);
  result.elapsedMs = Math.round(performance.now() - t0);
  return result;
}

/** What tells one cause from another: for most rules the normalized message; for some the rule says it all. */
function classKey(f: Failure): string {
  switch (f.rule) {
    case 'sentinel-damaged':
      return `${f.rule} | by ${f.case.generator.split('/')[0]} requests`;
    case 'stream-for-a-write':
    case 'warning-not-truncated':
      return f.rule;
    case 'slow-response':
      return `${f.rule} | ${f.case.generator}`;
    case 'write-through-dot-segment':
    case 'write-on-cluster-wide-collection':
      return `${f.rule} | ${f.case.method}`;
    case 'no-response':
      return `${f.rule} | ${f.case.method === 'CONNECT' ? 'CONNECT' : normalizeMessage(f.message)}`;
    default:
      return `${f.rule} | ${f.status} | ${normalizeMessage(f.message)}`;
  }
}

export function classify(failures: Failure[]): FailureClass[] {
  const classes = new Map<string, FailureClass>();
  for (const f of failures) {
    const key = classKey(f);
    let fc = classes.get(key);
    if (!fc) {
      fc = { key, rule: f.rule, status: f.status, count: 0, generators: new Set(), example: f };
      classes.set(key, fc);
    }
    fc.count++;
    fc.generators.add(f.case.generator);
    if (bodySize(f.case) < bodySize(fc.example.case)) fc.example = f;
  }
  return [...classes.values()].sort((a, b) => b.count - a.count);
}

function show(s: string, max: number): string {
  const j = JSON.stringify(s);
  return j.length > max ? `${j.slice(0, max)}…" (${s.length} chars)` : j;
}

/** A failing case as something to replay: method, path, headers, body (truncated). */
export function describeCase(c: FuzzCase, seed: number): string {
  const body = c.body ? Buffer.from(c.body) : undefined;
  const lines = [
    `    replay: FUZZ_SEED=${seed} FUZZ_ONLY=${c.index}   (${c.generator}: ${c.note.slice(0, 200)})`,
    `    ${c.method} ${show(c.path, 300)}`,
    `    headers: ${show(JSON.stringify(c.headers), 300)}`,
  ];
  if (body) {
    const printable = body.subarray(0, 300).toString('utf8');
    lines.push(`    body (${body.length} bytes): ${show(printable, 320)}`);
  }
  return lines.join('\n');
}

export function formatReport(r: RunResult): string {
  const out: string[] = [];
  out.push(
    `fuzz seed ${r.seed}: ${r.sent} requests sent (${r.clientRefused} refused by the client), ${r.failures.length} failures in ${r.classes.length} classes, ${(r.elapsedMs / 1000).toFixed(1)} s`,
  );
  if (r.aborted) out.push(`ABORTED: ${r.aborted}`);
  for (const fc of r.classes) {
    out.push(`\n[${fc.count}x] ${fc.key}`);
    out.push(`    generators: ${[...fc.generators].sort().join(', ')}`);
    out.push(`    message: ${fc.example.message.slice(0, 300)}`);
    out.push(describeCase(fc.example.case, r.seed));
    if (fc.example.response) out.push(`    response: ${show(fc.example.response, 240)}`);
  }
  return out.join('\n');
}

export function formatCounts(r: RunResult): string {
  const out: string[] = [];
  const statuses = [...r.byStatus.entries()].sort((a, b) => a[0] - b[0]);
  out.push(`by status: ${statuses.map(([s, n]) => `${s || 'none'}: ${n}`).join(', ')}`);
  out.push('by generator:');
  for (const [g, m] of [...r.byGenerator.entries()].sort()) {
    out.push(
      `  ${g.padEnd(44)} ${[...m.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s || 'none'}:${n}`)
        .join(' ')}`,
    );
  }
  out.push('slowest:');
  for (const s of r.slowest) out.push(`  ${String(s.ms).padStart(6)} ms  ${s.status}  case ${s.c.index} ${s.c.generator}: ${s.c.note.slice(0, 100)}`);
  return out.join('\n');
}
