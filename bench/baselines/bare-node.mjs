// Baseline server of bench/auth: a bare node:http (or node:https) server
// answering every request with the same small ConfigMap JSON, to show what
// TLS itself costs. argv: `http` or `https`, then the directory holding
// apiserver.crt and apiserver.key (used for https; a client certificate is
// asked for and not checked, as our server asks for one).
// Plain JavaScript, run by node as our compiled server is.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTLS } from 'node:https';

const [mode, dir] = process.argv.slice(2);
const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', namespace: 'default' }, data: { key: 'value' } });
const handler = (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
};
const server =
  mode === 'https'
    ? createTLS({ cert: readFileSync(`${dir}/apiserver.crt`), key: readFileSync(`${dir}/apiserver.key`), requestCert: true, rejectUnauthorized: false }, handler)
    : createServer(handler);
server.listen(0, '127.0.0.1', () => console.log(`listening on ${mode}://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
