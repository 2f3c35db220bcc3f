// The admin kubeconfig the server writes on start: one cluster, one user,
// one context (namespace default), in the format kubectl and client-node
// read. Over TLS it carries the CA that signed the serving certificate and
// the admin's client certificate; over plain HTTP, nothing to verify.
// Written out line by line (its shape is fixed), so that start-up does not
// load a YAML library for it.

export interface KubeconfigOptions {
  server: string;
  token?: string;
  /** PEM of the CA that signed the serving certificate. */
  caPEM?: string;
  clientCertPEM?: string;
  clientKeyPEM?: string;
  name?: string;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

// a plain scalar only when YAML cannot read it as anything but this string
// (no spaces, no indicator first, no ':' last: URLs and base64 stay plain)
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9+/=._:@[\]%~-]*$/;
const ENDS_WITH_COLON = /:$/;
const NOT_A_STRING =
  /^(?:[-+]?[0-9._]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0[xXoObB][0-9a-fA-F_]+|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|-|=)$/;

/** A YAML scalar for a string (JSON's double-quoted form is YAML too) or a boolean. */
function scalar(v: string | boolean): string {
  if (typeof v === 'boolean') return String(v);
  return PLAIN.test(v) && !ENDS_WITH_COLON.test(v) && !NOT_A_STRING.test(v) ? v : JSON.stringify(v);
}

/** `key: value` lines of a map, indented. */
const mapLines = (m: Record<string, string | boolean>, indent: string) => Object.entries(m).map(([k, v]) => `${indent}${k}: ${scalar(v)}`);

export function kubeconfigYAML(o: KubeconfigOptions): string {
  const name = o.name ?? 'specserver';
  const cluster: Record<string, string | boolean> = { server: o.server };
  if (o.caPEM) cluster['certificate-authority-data'] = b64(o.caPEM);
  // client-node refuses plain http unless TLS verification is explicitly off (there is no TLS to verify)
  if (o.server.startsWith('http:')) cluster['insecure-skip-tls-verify'] = true;
  const user: Record<string, string> = {};
  if (o.clientCertPEM && o.clientKeyPEM) {
    user['client-certificate-data'] = b64(o.clientCertPEM);
    user['client-key-data'] = b64(o.clientKeyPEM);
  }
  if (o.token) user.token = o.token;
  const userLines = mapLines(user, '      ');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${scalar(name)}`,
    '    cluster:',
    ...mapLines(cluster, '      '),
    'users:',
    `  - name: ${scalar(`${name}-admin`)}`,
    userLines.length ? '    user:' : '    user: {}',
    ...userLines,
    'contexts:',
    `  - name: ${scalar(name)}`,
    '    context:',
    ...mapLines({ cluster: name, user: `${name}-admin`, namespace: 'default' }, '      '),
    `current-context: ${scalar(name)}`,
    'preferences: {}',
    '',
  ].join('\n');
}
