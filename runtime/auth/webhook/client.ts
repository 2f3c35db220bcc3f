// The HTTP(S) client that POSTs a JSON body to a webhook configured by a
// kubeconfig (CA or system roots, optional client certificate and bearer
// token, keep-alive), with an absolute time limit per call covering the
// answer's body (upstream's 30s for webhooks) and a cap on the answer's
// size. Failures are WebhookCallErrors saying whether upstream would retry.

import http from 'node:http';
import https from 'node:https';
import type { WebhookClientConfig } from './kubeconfig.ts';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;
export const MAX_ANSWER_BYTES = 3 * 1024 * 1024;

export interface WebhookAnswer {
  status: number;
  retryAfter?: string;
  body: Buffer;
}

export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    /** The call ran out of its time limit. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

const RETRIABLE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export class WebhookClient {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    private readonly cfg: WebhookClientConfig,
    private readonly timeoutMs = DEFAULT_WEBHOOK_TIMEOUT_MS,
  ) {
    const secure = cfg.server.protocol === 'https:';
    this.transport = secure ? https : http;
    this.agent = secure
      ? new https.Agent({
          keepAlive: true,
          ca: cfg.ca,
          cert: cfg.cert,
          key: cfg.key,
          rejectUnauthorized: !cfg.insecureSkipTLSVerify,
          servername: cfg.tlsServerName,
        })
      : new http.Agent({ keepAlive: true });
  }

  /** POSTs `body` (to `url` when given, else the configured server) within `timeoutMs` (default: the client's). */
  post(body: string, call: { timeoutMs?: number; url?: URL } = {}): Promise<WebhookAnswer> {
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    return new Promise<WebhookAnswer>((resolve, reject) => {
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'Content-Length': String(Buffer.byteLength(body)),
      };
      if (this.cfg.token) headers.Authorization = `Bearer ${this.cfg.token}`;
      else if (this.cfg.basicAuth) headers.Authorization = `Basic ${Buffer.from(`${this.cfg.basicAuth.username}:${this.cfg.basicAuth.password}`).toString('base64')}`;
      let settled = false;
      const finish = (err: WebhookCallError | undefined, answer?: WebhookAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(answer!);
      };
      const req = this.transport.request(call.url ?? this.cfg.server, { method: 'POST', agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) {
            finish(new WebhookCallError(`the webhook's answer is larger than ${MAX_ANSWER_BYTES} bytes`, false));
            req.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          finish(undefined, { status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, body: Buffer.concat(chunks) });
        });
        res.on('error', (err) => finish(new WebhookCallError(`reading the webhook's answer: ${err.message}`, true)));
      });
      const timer = setTimeout(() => {
        finish(new WebhookCallError(`the webhook did not answer within ${timeoutMs}ms`, false, true));
        req.destroy();
      }, timeoutMs);
      timer.unref?.();
      req.on('error', (err: NodeJS.ErrnoException) => {
        finish(new WebhookCallError(`calling the webhook: ${err.message}`, RETRIABLE_CODES.has(err.code ?? '')));
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
