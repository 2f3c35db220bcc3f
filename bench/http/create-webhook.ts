// Creates through one local mutating admission webhook against creates the
// webhook does not match, on the same server in the same run: autocannon
// POSTs ConfigMaps (16 connections) labelled `hooked: "yes"`, which a
// MutatingWebhookConfiguration's objectSelector sends to an HTTPS webhook
// served by this process (it adds a label with a JSON patch), interleaved
// with POSTs of unlabelled ConfigMaps, which the selector skips (the
// baseline: admission without a webhook call). The webhook shares this
// process with the load generator, as a local webhook shares a machine.
// Interleaved repetitions, medians.
// Usage: npx tsx bench/http/create-webhook.ts [--quick]

import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, postJSON } from '../support/http.ts';
import { spawnOurs } from '../support/servers.ts';
import { interleave, load1, median, sleep } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const CONNECTIONS = 16;
const PATCH = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }])).toString('base64');

const configMap = (name: string, hooked: boolean) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: hooked ? { name, labels: { hooked: 'yes' } } : { name },
  data: { key: 'value'.repeat(20) },
});

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const ca = await createCA('bench-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: 'webhook', hosts: ['127.0.0.1'], usage: 'server', validityDays: 1 });
  const hook = createServer({ cert: serving.certPEM, key: serving.keyPEM }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { uid } = (JSON.parse(body) as { request: { uid: string } }).request;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true, patchType: 'JSONPatch', patch: PATCH } }));
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    const collection = `${ours.url}/api/v1/namespaces/default/configmaps`;
    await postJSON(`${ours.url}/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'bench' },
      webhooks: [
        {
          name: 'label.bench.example.com',
          clientConfig: { url: `https://127.0.0.1:${(hook.address() as AddressInfo).port}/mutate`, caBundle: Buffer.from(ca.certPEM).toString('base64') },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          objectSelector: { matchLabels: { hooked: 'yes' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    // the configuration takes effect once the server's watch delivers it: wait until a create comes back mutated
    for (let i = 0; ; i++) {
      const created = JSON.parse(await postJSON(collection, configMap(`probe-${i}`, true))) as { metadata?: { labels?: Record<string, string> } };
      if (created.metadata?.labels?.mutated === 'yes') break;
      if (i > 500) throw new Error('the webhook configuration never took effect');
      await sleep(10);
    }
    let n = 0;
    const creates = (hooked: boolean, seconds: number) => async () => {
      const r = await cannon({
        url: collection,
        connections: CONNECTIONS,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(configMap(`c-${n++}`, hooked)) }) }],
      });
      return r.requests.average;
    };
    await creates(true, 1)();
    await creates(false, 1)();
    const p = await interleave(pairs, creates(true, duration), creates(false, duration));
    log(`through the webhook ${p.ours.map((x) => x.toFixed(0)).join(' ')}; not matched ${p.baseline.map((x) => x.toFixed(0)).join(' ')} /s`);
    return [
      {
        figure: `creates through 1 mutating webhook, ${CONNECTIONS} conns`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'the same creates not matched by the webhook (same server, same run)',
        aim: { of: 'ratio', op: '>=', value: 0.3 },
        load: load1(),
        detail: `medians of ${pairs} interleaved ${duration}s runs; webhook ${p.ours.map((x) => x.toFixed(0)).join(', ')}; none ${p.baseline.map((x) => x.toFixed(0)).join(', ')}`,
      },
    ];
  } finally {
    await ours.stop();
    hook.closeAllConnections();
    await new Promise((r) => hook.close(r));
  }
}

export const figure: Figure = { name: 'create-webhook', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
