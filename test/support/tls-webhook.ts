// A TLS server for a test to point a webhook at (admission, conversion,
// authentication, authorization): a new CA (or the given one), a serving
// certificate for the given hosts, an https server on an ephemeral port,
// and what a configuration needs to call it: the CA certificate (PEM and
// base64, as a caBundle or certificate-authority-data), the port and URLs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCA, issueCertificate, type KeyPairPEM } from '../../runtime/auth/pki/certs.ts';

export interface TlsWebhookOptions {
  /** The common name of the new CA (default 'webhook-ca'); ignored with `ca`. */
  caName?: string;
  /** A CA to issue the serving certificate from instead of a new one (servers that share one caBundle). */
  ca?: KeyPairPEM;
  /** The serving certificate's common name (default 'webhook'). */
  commonName?: string;
  /** The names and addresses the serving certificate is for (default 127.0.0.1). */
  hosts?: string[];
  /** The address to listen on (default 127.0.0.1; 0.0.0.0 to be reached at the host's own address). */
  listenHost?: string;
  /** More TLS options of the server (client certificates: ca, requestCert, rejectUnauthorized). */
  tls?: ServerOptions;
}

export interface TlsWebhook {
  server: Server;
  port: number;
  /** The CA that signed the serving certificate. */
  ca: KeyPairPEM;
  /** The CA certificate in base64, as a caBundle or certificate-authority-data. */
  caBundle: string;
  /** https://127.0.0.1:<port><path>. */
  url(path?: string): string;
  /** Ends open connections and closes the server. */
  close(): Promise<void>;
}

export async function startTlsWebhook(handler: (req: IncomingMessage, res: ServerResponse) => void, o: TlsWebhookOptions = {}): Promise<TlsWebhook> {
  const ca = o.ca ?? (await createCA(o.caName ?? 'webhook-ca'));
  const serving = await issueCertificate(ca, { commonName: o.commonName ?? 'webhook', hosts: o.hosts ?? ['127.0.0.1'], usage: 'server', validityDays: 1 });
  const server = createServer({ ...o.tls, cert: serving.certPEM, key: serving.keyPEM }, handler);
  await new Promise<void>((r) => server.listen(0, o.listenHost ?? '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    ca,
    caBundle: Buffer.from(ca.certPEM).toString('base64'),
    url: (path = '') => `https://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
