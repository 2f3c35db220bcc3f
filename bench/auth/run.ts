// bench/auth: what TLS and authentication cost.
//   1. GET of one object over keep-alive connections: plain HTTP (no
//      authentication, AlwaysAllow) against TLS with the admin's client
//      certificate and TLS with a bearer token from --token-auth-file, on two
//      server processes started the same way, measured in interleaved rounds
//      (median of the rounds; aim: each TLS ratio >= 0.8).
//   2. Per-request cost of each authenticator in-process (the chain's
//      authenticate() for a client certificate, a token-file token, an
//      unknown token and no credential), against a baseline loop that builds
//      the same request objects and authenticates nothing.
// Usage: npx tsx bench/auth/run.ts [--quick]

import autocannon from 'autocannon';
import { X509Certificate } from 'node:crypto';
import { spawnListening } from '../support/process.ts';
import { root, serverCommand, spawnBaseline } from '../support/servers.ts';
import { loadAverage, median } from '../support/stats.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import type { AuthRequest } from '../../runtime/auth/authenticator.ts';
import { AuthenticationChain } from '../../runtime/auth/chain.ts';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { loadTokenFile } from '../../runtime/auth/token-file.ts';
import { ClientCertAuthenticator } from '../../runtime/auth/x509/authenticator.ts';
import { parseCABundle, verifyChain } from '../../runtime/auth/x509/verify.ts';

const quick = process.argv.includes('--quick');
const DURATION = quick ? 2 : 5;
const ROUNDS = quick ? 3 : 5;
const scratch = mkdtempSync(join(tmpdir(), 'bench-auth-'));
const TOKEN = 'bench-token-0123456789abcdef';
writeFileSync(join(scratch, 'tokens.csv'), `${TOKEN},bench-user,1,"system:masters"\n`);

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({ connections: 16, pipelining: 1, duration: DURATION, ...opts });
}

/** A server process of this checkout with its own data directory under the scratch folder. */
const spawnServer = (name: string, extra: string[]) => spawnListening([...serverCommand(), '--data-dir', join(scratch, name), '--secure-port', '0', ...extra], root);

async function main(): Promise<void> {
  const results: Record<string, string> = {
    'load average at start': loadAverage(),
  };
  const plain = await spawnServer('plain', ['--insecure-serve-http', '--authorization-mode', 'AlwaysAllow']);
  const tls = await spawnServer('tls', ['--token-auth-file', join(scratch, 'tokens.csv')]);
  const pki = join(scratch, 'tls', 'pki');
  const bareHTTP = await spawnBaseline('bare-node.mjs', ['http', pki]);
  const bareTLS = await spawnBaseline('bare-node.mjs', ['https', pki]);
  try {
    const ca = readFileSync(join(pki, 'ca.crt'), 'utf8');
    const cert = readFileSync(join(pki, 'admin.crt'), 'utf8');
    const key = readFileSync(join(pki, 'admin.key'), 'utf8');
    const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench' }, data: { key: 'value' } });
    const path = '/api/v1/namespaces/default/configmaps';
    await fetch(`${plain.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: cm });
    const admin = new Agent({ connect: { ca, cert, key } });
    const created = await undiciFetch(`${tls.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: cm, dispatcher: admin });
    if (created.status !== 201) throw new Error(`create over TLS: ${created.status}`);

    const runs: Record<string, () => Promise<autocannon.Result>> = {
      plain: () => cannon({ url: `${plain.url}${path}/bench` }),
      'tls+cert': () => cannon({ url: `${tls.url}${path}/bench`, tlsOptions: { ca, cert, key } }),
      'tls+token': () => cannon({ url: `${tls.url}${path}/bench`, headers: { authorization: `Bearer ${TOKEN}` } }),
      'bare node http': () => cannon({ url: `${bareHTTP.url}/` }),
      'bare node https': () => cannon({ url: `${bareTLS.url}/` }),
    };
    const figures: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
    // one warm-up run each, then interleaved rounds
    for (const name of Object.keys(runs)) {
      const r = await runs[name]();
      if (r.non2xx) throw new Error(`${name}: ${r.non2xx} non-2xx answers`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of Object.keys(runs)) {
        const r = await runs[name]();
        if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        figures[name].push(r.requests.average);
      }
    }
    for (const [name, xs] of Object.entries(figures)) results[`GET req/s ${name} (median of ${ROUNDS})`] = median(xs).toFixed(0);
    results['ratio tls+cert / plain (aim >= 0.8)'] = (median(figures['tls+cert']) / median(figures.plain)).toFixed(2);
    results['ratio tls+token / plain (aim >= 0.8)'] = (median(figures['tls+token']) / median(figures.plain)).toFixed(2);
    results['ratio bare node https / http (what TLS alone costs here)'] = (median(figures['bare node https']) / median(figures['bare node http'])).toFixed(2);
  } finally {
    await Promise.all([plain.stop(), tls.stop(), bareHTTP.stop(), bareTLS.stop()]);
  }

  // 2. per-request cost of each authenticator, in-process
  const ca = await createCA('bench-ca');
  const leaf = await issueCertificate(ca, { commonName: 'u', organizations: ['g'], usage: 'client', validityDays: 1 });
  const roots = parseCABundle(ca.certPEM, 'bench');
  const peer = { raw: new Uint8Array(new X509Certificate(leaf.certPEM).raw), intermediates: [] };
  const tokens = loadTokenFile(join(scratch, 'tokens.csv')).authenticator;
  const chain = new AuthenticationChain({ requestAuthenticators: [new ClientCertAuthenticator(roots)], tokenAuthenticators: [tokens], apiAudiences: ['x'], anonymous: () => true });
  const req = (headers: Record<string, string>, withCert: boolean): AuthRequest => ({
    path: '/api',
    header: (n) => headers[n.toLowerCase()],
    headerValues: (n) => (headers[n.toLowerCase()] ? [headers[n.toLowerCase()]] : []),
    headerNames: () => Object.keys(headers),
    certificate: withCert ? peer : undefined,
  });
  const N = quick ? 20_000 : 100_000;
  const perRequest = async (f: () => unknown): Promise<number> => {
    const xs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const t = performance.now();
      for (let i = 0; i < N; i++) await f();
      xs.push(((performance.now() - t) * 1000) / N);
    }
    return median(xs);
  };
  const base = await perRequest(async () => req({ authorization: `Bearer ${TOKEN}` }, true));
  results['baseline: building the request view (µs)'] = base.toFixed(2);
  // the chain answers at once where it can (a cached certificate verdict, anonymous): no promise to await then
  const cases: [string, () => unknown][] = [
    ['client certificate, verdict cached per connection', () => chain.authenticate(req({}, true))],
    ['token file', () => chain.authenticate(req({ authorization: `Bearer ${TOKEN}` }, false))],
    ['unknown token (401)', () => Promise.resolve(chain.authenticate(req({ authorization: 'Bearer nope' }, false))).catch(() => undefined)],
    ['no credential (anonymous)', () => chain.authenticate(req({}, false))],
  ];
  for (const [name, f] of cases) results[`µs per request above baseline: ${name}`] = ((await perRequest(f)) - base).toFixed(2);
  const verifyN = quick ? 2_000 : 10_000;
  const t = performance.now();
  for (let i = 0; i < verifyN; i++) verifyChain(peer, roots);
  results['µs per uncached certificate verification (a new connection)'] = (((performance.now() - t) * 1000) / verifyN).toFixed(1);
  results['load average at end'] = loadAverage();
  for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(70)} ${v}`);
}

main()
  .finally(() => rmSync(scratch, { recursive: true, force: true }))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
