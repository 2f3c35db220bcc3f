// bench/hardening: the most expensive request bodies the decoders and patch
// code accept (or must reject), each next to a normal request of the same
// kind measured in the same run. For every body kind (JSON, YAML, protobuf,
// JSON patch, merge patch, strategic merge patch, apply) and each worst case
// (deepest allowed nesting, most keys in the 3 MiB body limit, most aliasing
// go-yaml's budget allows, the most YAML tokens, bodies far past the limits,
// patches with 10,000 operations or 60,000 list items), rounds of worst and normal requests are
// interleaved; printed are the medians of the answer time and of the peak RSS
// growth during the request, the worst/normal ratio, the status code, and how
// long a /readyz sent while the worst request is being processed waits.
// The server is a child process (`node --import tsx runtime/cli.ts`).
// Usage: npx tsx bench/hardening/worst-case.ts [--rounds N] [--only substring]

import { request as httpRequest } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { startServerProcess, type ServerProcess } from '../../test/support/server-process.ts';
import { loadKubeProtobuf, type KubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import { MAX_NESTING_DEPTH as L } from '../../runtime/codec/limits.ts';
import { crdProtobufNot, jsonObjects, manyLabels, revisionJSON, revisionProtobuf, revisionYAML, yamlBlockMaps, yamlLaughs } from '../../test/support/hostile-bodies.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const ROUNDS = Number(arg('--rounds') ?? 5);
const ONLY = arg('--only');

const NS = '/api/v1/namespaces/default';
const CM = `${NS}/configmaps`;
const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const CRD = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CT = {
  json: 'application/json',
  yaml: 'application/yaml',
  pb: 'application/vnd.kubernetes.protobuf',
  jsonPatch: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  smp: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

interface Req {
  method: string;
  path: string;
  body: string | Uint8Array;
  ct: string;
}
interface Case {
  kind: string;
  name: string;
  /** Objects the request needs, created once before the rounds. */
  setup?: (s: Client) => Promise<void>;
  make: (round: number) => Req;
}

class Client {
  constructor(readonly url: string) {}

  send(r: Req, onSent?: () => void): Promise<{ status: number; ms: number; text: string }> {
    const body = typeof r.body === 'string' ? Buffer.from(r.body) : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength);
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = httpRequest(
        this.url + r.path,
        {
          method: r.method,
          agent: false,
          headers: { 'content-type': r.ct, 'content-length': body.byteLength, accept: 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', reject);
      req.on('finish', () => onSent?.());
      req.end(body);
    });
  }

  async must(r: Req, ok: number[] = [200, 201]): Promise<void> {
    const res = await this.send(r);
    if (!ok.includes(res.status)) throw new Error(`${r.method} ${r.path}: ${res.status} ${res.text.slice(0, 300)}`);
  }
}

// ---- RSS of the server process (peak during one request via clear_refs) ----

function rssKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

let canResetPeak = true;
function resetPeak(pid: number): void {
  if (!canResetPeak) return;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    canResetPeak = false;
  }
}

// ---- the cases ----

const smallCM = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
const smallCMYAML = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

/** As many labels as fit the 3 MiB body limit (JSON). */
const LABELS_3MIB = 200_000;

function deployment(name: string, env: { name: string; value: string }[]): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', env }] } } },
  });
}

function cases(pb: KubeProtobuf): Case[] {
  const id = (p: string, round: number, tag: string) => `${p}-${tag}-${round}`;
  return [
    // JSON
    { kind: 'JSON', name: 'normal: a small ConfigMap', make: (r) => ({ method: 'POST', path: CM, body: smallCM(id('j', r, 'n')), ct: CT.json }) },
    { kind: 'JSON', name: `nesting at the limit (${L})`, make: (r) => ({ method: 'POST', path: CR, body: revisionJSON(id('j', r, 'deep'), jsonObjects(L - 1)), ct: CT.json }) },
    { kind: 'JSON', name: `${LABELS_3MIB / 1000}k labels (3 MiB)`, make: (r) => ({ method: 'POST', path: CM, body: manyLabels(id('j', r, 'keys'), LABELS_3MIB), ct: CT.json }) },
    {
      kind: 'JSON',
      name: 'one 3 MiB string',
      make: (r) => ({
        method: 'POST',
        path: CM,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id('j', r, 'big') }, data: { a: 'x'.repeat(3 * 1024 * 1024 - 200) } }),
        ct: CT.json,
      }),
    },
    { kind: 'JSON', name: '3 MiB of [ (rejected)', make: (r) => ({ method: 'POST', path: CR, body: revisionJSON(id('j', r, 'far'), '['.repeat(3 * 1024 * 1024 - 200)), ct: CT.json }) },
    // YAML
    { kind: 'YAML', name: 'normal: a small ConfigMap', make: (r) => ({ method: 'POST', path: CM, body: smallCMYAML(id('y', r, 'n')), ct: CT.yaml }) },
    { kind: 'YAML', name: `block nesting at the limit (${L})`, make: (r) => ({ method: 'POST', path: CR, body: revisionYAML(id('y', r, 'deep'), yamlBlockMaps(L - 1, 2), true), ct: CT.yaml }) },
    {
      // about 6 tokens a label: just under the token limit
      kind: 'YAML',
      name: '80k labels, block style (1.3 MiB)',
      make: (r) => ({
        method: 'POST',
        path: CM,
        body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${id('y', r, 'keys')}\n  labels:\n${Array.from({ length: 80_000 }, (_, i) => `    k${i}: v`).join('\n')}\n`,
        ct: CT.yaml,
      }),
    },
    {
      // one alias of the longest list under the token limit: half the nodes through the alias
      kind: 'YAML',
      name: 'most aliasing allowed (240k-item list aliased)',
      make: (r) => ({ method: 'POST', path: CR, body: revisionYAML(id('y', r, 'alias'), `{a: &a [${Array(240_000).fill('1').join(',')}], b: *a}`), ct: CT.yaml }),
    },
    {
      kind: 'YAML',
      name: '1.5M-item list, 3 MiB (refused: token limit)',
      make: (r) => ({ method: 'POST', path: CR, body: revisionYAML(id('y', r, 'tokens'), `{a: [${Array(1_500_000).fill('1').join(',')}]}`), ct: CT.yaml }),
    },
    { kind: 'YAML', name: 'billion laughs (rejected)', make: (r) => ({ method: 'POST', path: CM, body: `${smallCMYAML(id('y', r, 'lol'))}${yamlLaughs(9, 9)}`, ct: CT.yaml }) },
    { kind: 'YAML', name: '2 MB of [ (rejected; was 11 s, +940 MiB)', make: (r) => ({ method: 'POST', path: CR, body: revisionYAML(id('y', r, 'far'), '['.repeat(2_000_000)), ct: CT.yaml }) },
    // protobuf
    { kind: 'protobuf', name: 'normal: a small ConfigMap', make: (r) => ({ method: 'POST', path: CM, body: pb.encode(JSON.parse(smallCM(id('p', r, 'n')))), ct: CT.pb }) },
    {
      kind: 'protobuf',
      name: `RawExtension JSON at the limit (${L})`,
      make: (r) => ({ method: 'POST', path: CR, body: revisionProtobuf(id('p', r, 'deep'), Buffer.from(jsonObjects(L - 1))), ct: CT.pb }),
    },
    { kind: 'protobuf', name: '150k labels', make: (r) => ({ method: 'POST', path: CM, body: pb.encode(JSON.parse(manyLabels(id('p', r, 'keys'), 150_000))), ct: CT.pb }) },
    { kind: 'protobuf', name: '400k nested messages (rejected)', make: () => ({ method: 'POST', path: CRD, body: crdProtobufNot(400_000), ct: CT.pb }) },
    // JSON patch
    {
      kind: 'JSON patch',
      name: 'normal: replace one value',
      setup: (s) => s.must({ method: 'POST', path: CM, body: smallCM('jp-normal'), ct: CT.json }),
      make: (r) => ({ method: 'PATCH', path: `${CM}/jp-normal`, body: JSON.stringify([{ op: 'replace', path: '/data/a', value: `v${r}` }]), ct: CT.jsonPatch }),
    },
    {
      kind: 'JSON patch',
      name: '10,000 moves at the front of a 700k-item list',
      setup: (s) => s.must({ method: 'POST', path: CR, body: revisionJSON('jp-list', `{"l":[${Array(700_000).fill('1').join(',')}]}`), ct: CT.json }),
      make: () => ({ method: 'PATCH', path: `${CR}/jp-list`, body: JSON.stringify(Array.from({ length: 10_000 }, () => ({ op: 'move', from: '/data/l/0', path: '/data/l/1' }))), ct: CT.jsonPatch }),
    },
    {
      kind: 'JSON patch',
      name: '10,000 moves in a 1 MiB object',
      setup: (s) =>
        s.must({
          method: 'POST',
          path: CM,
          body: JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'jp-big' },
            data: { a: 'x', ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v'.repeat(1000)])) },
          }),
          ct: CT.json,
        }),
      make: () => ({
        method: 'PATCH',
        path: `${CM}/jp-big`,
        body: JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ op: 'move', from: i % 2 ? '/data/b' : '/data/a', path: i % 2 ? '/data/a' : '/data/b' }))),
        ct: CT.jsonPatch,
      }),
    },
    {
      kind: 'JSON patch',
      name: 'moves nesting 200k levels (rejected)',
      setup: (s) => s.must({ method: 'POST', path: CR, body: revisionJSON('jp-nest', '{}'), ct: CT.json }),
      make: () => {
        const ops: string[] = [];
        for (let i = 0; i < 2000; i++) {
          ops.push(`{"op":"add","path":"/data/c${i}","value":${jsonObjects(99)}}`);
          if (i > 0) ops.push(`{"op":"move","from":"/data/c${i - 1}","path":"/data/c${i}${'/a'.repeat(99)}"}`);
        }
        return { method: 'PATCH', path: `${CR}/jp-nest`, body: `[${ops.join(',')}]`, ct: CT.jsonPatch };
      },
    },
    // merge patch
    {
      kind: 'merge patch',
      name: 'normal: one value',
      setup: (s) => s.must({ method: 'POST', path: CM, body: smallCM('mp-normal'), ct: CT.json }),
      make: (r) => ({ method: 'PATCH', path: `${CM}/mp-normal`, body: JSON.stringify({ data: { a: `v${r}` } }), ct: CT.merge }),
    },
    {
      kind: 'merge patch',
      name: `nesting at the limit (${L})`,
      setup: (s) => s.must({ method: 'POST', path: CR, body: revisionJSON('mp-deep', '{}'), ct: CT.json }),
      make: () => ({ method: 'PATCH', path: `${CR}/mp-deep`, body: `{"data":${jsonObjects(L - 1)}}`, ct: CT.merge }),
    },
    {
      kind: 'merge patch',
      name: `${LABELS_3MIB / 1000}k labels (3 MiB)`,
      setup: (s) => s.must({ method: 'POST', path: CM, body: smallCM('mp-keys'), ct: CT.json }),
      make: () => ({ method: 'PATCH', path: `${CM}/mp-keys`, body: JSON.stringify({ metadata: { labels: JSON.parse(manyLabels('x', LABELS_3MIB)).metadata.labels } }), ct: CT.merge }),
    },
    // strategic merge patch
    {
      kind: 'strategic merge',
      name: 'normal: one image',
      setup: (s) => s.must({ method: 'POST', path: DEPLOY, body: deployment('smp-normal', []), ct: CT.json }),
      make: (r) => ({ method: 'PATCH', path: `${DEPLOY}/smp-normal`, body: JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'c', image: `i:${r}` }] } } } }), ct: CT.smp }),
    },
    {
      kind: 'strategic merge',
      name: '60k env items by key into 15k (reversed)',
      setup: (s) =>
        s.must({
          method: 'POST',
          path: DEPLOY,
          body: deployment(
            'smp-env',
            Array.from({ length: 15_000 }, (_, i) => ({ name: `E${i}`, value: 'v' })),
          ),
          ct: CT.json,
        }),
      make: (r) => ({
        method: 'PATCH',
        path: `${DEPLOY}/smp-env`,
        ct: CT.smp,
        body: JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'c', env: Array.from({ length: 60_000 }, (_, i) => ({ name: `E${59_999 - i}`, value: `w${r}` })) }] } } } }),
      }),
    },
    {
      kind: 'strategic merge',
      name: '60k new items under an empty $setElementOrder',
      setup: (s) => s.must({ method: 'POST', path: DEPLOY, body: deployment('smp-order', [{ name: 'A', value: 'v' }]), ct: CT.json }),
      make: (r) => ({
        method: 'PATCH',
        path: `${DEPLOY}/smp-order`,
        ct: CT.smp,
        body: JSON.stringify({
          spec: { template: { spec: { containers: [{ name: 'c', '$setElementOrder/env': [], env: Array.from({ length: 60_000 }, (_, i) => ({ name: `N${r}-${i}`, value: 'w' })) }] } } },
        }),
      }),
    },
    // apply
    { kind: 'apply', name: 'normal: a small ConfigMap', make: (r) => ({ method: 'PATCH', path: `${CM}/${id('a', r, 'n')}?fieldManager=bench`, body: smallCMYAML(id('a', r, 'n')), ct: CT.apply }) },
    {
      kind: 'apply',
      name: `YAML block nesting at the limit (${L})`,
      make: (r) => ({ method: 'PATCH', path: `${CR}/${id('a', r, 'deep')}?fieldManager=bench`, body: revisionYAML(id('a', r, 'deep'), yamlBlockMaps(L - 1, 2), true), ct: CT.apply }),
    },
    {
      kind: 'apply',
      name: `${LABELS_3MIB / 1000}k labels in JSON (3 MiB)`,
      make: (r) => ({ method: 'PATCH', path: `${CM}/${id('a', r, 'keys')}?fieldManager=bench`, body: manyLabels(id('a', r, 'keys'), LABELS_3MIB), ct: CT.apply }),
    },
    {
      kind: 'apply',
      name: 'billion laughs (rejected)',
      make: (r) => ({ method: 'PATCH', path: `${CM}/${id('a', r, 'lol')}?fieldManager=bench`, body: `${smallCMYAML(id('a', r, 'lol'))}${yamlLaughs(9, 9)}`, ct: CT.apply }),
    },
  ];
}

// ---- measuring ----

interface Sample {
  ms: number;
  rssMiB: number;
  status: number;
  readyMs: number;
}

async function measure(s: ServerProcess, client: Client, r: Req): Promise<Sample> {
  const pid = s.proc.pid!;
  const before = rssKiB(pid, 'VmRSS');
  resetPeak(pid);
  let ready: Promise<number> | undefined;
  const res = await client.send(r, () => {
    // once the body is on the wire: how long does a readiness probe wait now?
    ready = client.send({ method: 'GET', path: '/readyz', body: '', ct: 'text/plain' }).then((x) => x.ms);
  });
  const readyMs = ready ? await ready : NaN;
  const peak = canResetPeak ? rssKiB(pid, 'VmHWM') : rssKiB(pid, 'VmRSS');
  return { ms: res.ms, rssMiB: Math.max(0, peak - before) / 1024, status: res.status, readyMs };
}

const median = (xs: number[]) => {
  const v = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : NaN;
};

async function main(): Promise<void> {
  const [s, pb] = await Promise.all([startServerProcess(['--insecure-serve-http', '--authorization-mode', 'AlwaysAllow']), loadKubeProtobuf()]);
  const client = new Client(s.url);
  try {
    for (;;) {
      if ((await client.send({ method: 'GET', path: '/readyz', body: '', ct: 'text/plain' })).status === 200) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const all = cases(pb).filter((c) => !ONLY || `${c.kind} ${c.name}`.includes(ONLY) || c.name.startsWith('normal'));
    for (const c of all) await c.setup?.(client);
    const kinds = [...new Set(all.map((c) => c.kind))];
    console.log(`bench/hardening: ${ROUNDS} rounds, medians; nesting limit ${L}; server pid ${s.proc.pid}${canResetPeak ? '' : ' (peak RSS not resettable: RSS after)'}`);
    console.log(`${'kind'.padEnd(17)}${'case'.padEnd(48)}${'code'.padStart(5)}${'ms'.padStart(9)}${'x normal'.padStart(10)}${'+MiB'.padStart(8)}${'readyz ms'.padStart(11)}`);
    for (const kind of kinds) {
      const normal = all.find((c) => c.kind === kind && c.name.startsWith('normal'))!;
      const normalSamples: Sample[] = [];
      for (const worst of all.filter((c) => c.kind === kind && c !== normal)) {
        const worstSamples: Sample[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          normalSamples.push(await measure(s, client, normal.make(normalSamples.length)));
          worstSamples.push(await measure(s, client, worst.make(round)));
        }
        const n = median(normalSamples.map((x) => x.ms));
        const w = median(worstSamples.map((x) => x.ms));
        const codes = [...new Set(worstSamples.map((x) => x.status))].join('/');
        console.log(
          `${kind.padEnd(17)}${worst.name.padEnd(48)}${codes.padStart(5)}${w.toFixed(1).padStart(9)}${(w / n).toFixed(0).padStart(10)}${median(worstSamples.map((x) => x.rssMiB))
            .toFixed(0)
            .padStart(8)}${median(worstSamples.map((x) => x.readyMs))
            .toFixed(0)
            .padStart(11)}`,
        );
      }
      const codes = [...new Set(normalSamples.map((x) => x.status))].join('/');
      console.log(
        `${kind.padEnd(17)}${normal.name.padEnd(48)}${codes.padStart(5)}${median(normalSamples.map((x) => x.ms))
          .toFixed(1)
          .padStart(9)}${'1'.padStart(10)}${median(normalSamples.map((x) => x.rssMiB))
          .toFixed(0)
          .padStart(8)}${median(normalSamples.map((x) => x.readyMs))
          .toFixed(0)
          .padStart(11)}`,
      );
    }
    const r = await client.send({ method: 'GET', path: '/readyz', body: '', ct: 'text/plain' });
    console.log(`\n/readyz after all: ${r.status}; server RSS ${(rssKiB(s.proc.pid!, 'VmRSS') / 1024).toFixed(0)} MiB`);
  } finally {
    await s.stop();
  }
}

await main();
