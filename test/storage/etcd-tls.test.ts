// The etcd KV over TLS (--etcd-cafile/--etcd-certfile/--etcd-keyfile): a
// member serving https that asks for client certificates, certificates made
// by the server's own PKI code. With the CA and a client certificate, reads,
// writes and a watch work (the server's own gRPC client carries the reads
// and writes, the etcd3 client the watch); without a client certificate, or
// trusting another CA, the open fails with a StorageError naming etcd.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, etcdBinary, freePort, memberArgs } from '../support/etcd.ts';
import { createCA, issueCertificate, type KeyPairPEM } from '../../runtime/auth/pki/certs.ts';
import { openEtcdKV } from '../../runtime/storage/etcd/index.ts';
import { StorageError, type KVEvent } from '../../runtime/storage/interface.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

describe.skipIf(!etcdAvailable())('etcd over TLS with client certificates', () => {
  let dir: string;
  let proc: ChildProcess | undefined;
  let url: string;
  let ca: KeyPairPEM;
  let client: KeyPairPEM;
  const pem = (s: string) => Buffer.from(s);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'specserver-etcd-tls-'));
    ca = await createCA('etcd-ca', 1);
    const server = await issueCertificate(ca, { commonName: 'etcd', hosts: ['127.0.0.1', 'localhost'], usage: 'server', validityDays: 1 });
    client = await issueCertificate(ca, { commonName: 'specserver', usage: 'client', validityDays: 1 });
    for (const [name, text] of [
      ['ca.crt', ca.certPEM],
      ['server.crt', server.certPEM],
      ['server.key', server.keyPEM],
    ]) {
      writeFileSync(join(dir, name), text);
    }
    url = `https://127.0.0.1:${await freePort()}`;
    const peer = `http://127.0.0.1:${await freePort()}`;
    const args = memberArgs({ name: 'tls', dataDir: join(dir, 'member'), url, peer, initialCluster: `tls=${peer}`, quotaBytes: 64 * 1024 * 1024 });
    args.push('--cert-file', join(dir, 'server.crt'), '--key-file', join(dir, 'server.key'), '--trusted-ca-file', join(dir, 'ca.crt'), '--client-cert-auth');
    proc = spawn(etcdBinary(), args, { stdio: 'ignore' });
  });
  afterAll(() => {
    proc?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads, writes and watches with the CA and a client certificate', async () => {
    // the open waits for the member to answer (its dial timeout)
    const kv = await openEtcdKV({ endpoints: [url], prefix: '/tls', dialTimeoutMs: 30_000, tls: { ca: pem(ca.certPEM), cert: pem(client.certPEM), key: pem(client.keyPEM) } });
    try {
      const events: KVEvent[] = [];
      const watch = kv.watch('/registry/c/', { afterRevision: await kv.currentRevision(), onEvents: (evs) => events.push(...evs) });
      const made = await kv.create('/registry/c/a', '{"v":1}');
      const updated = await kv.update('/registry/c/a', '{"v":2}', made.modRevision);
      expect((await kv.get('/registry/c/a'))?.value).toBe('{"v":2}');
      expect((await kv.list('/registry/c/')).kvs.map((e) => e.key)).toEqual(['/registry/c/a']);
      await expect.poll(() => events.map((e) => e.kv.modRevision), { timeout: 10_000 }).toEqual([made.modRevision, updated.modRevision]);
      watch.close();
    } finally {
      await kv.close();
    }
  });

  it.each([
    ['without a client certificate', (): { ca: Buffer; cert?: Buffer; key?: Buffer } => ({ ca: pem(ca.certPEM) })],
    ['trusting another CA', async () => ({ ca: pem((await createCA('other-ca', 1)).certPEM), cert: pem(client.certPEM), key: pem(client.keyPEM) })],
  ])('refuses to open %s', async (_name, tls) => {
    const err = await openEtcdKV({ endpoints: [url], prefix: '/tls', dialTimeoutMs: 1000, tls: await tls() }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toMatch(/^cannot reach etcd at https:\/\/127\.0\.0\.1/);
  });
});
