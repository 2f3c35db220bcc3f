// --etcd-servers-overrides: per-resource etcd servers, kube-apiserver's format
// `group/resource#servers` with servers semicolon separated, overrides comma
// separated (`/events#http://127.0.0.1:4002`: core Events in their own etcd).
// Each named resource is stored in its own etcd (storage/factory.ts); the
// override needs --etcd-servers (the rest of the store).

export class EtcdOverridesError extends Error {}

export interface EtcdServersOverride {
  group: string;
  resource: string;
  servers: string[];
}

const FORMAT = '--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated';

/** The overrides of the flag's value (undefined or empty: none); throws EtcdOverridesError with upstream's text. */
export function parseEtcdServersOverrides(value: string | undefined, etcdServers: string[] | undefined): EtcdServersOverride[] {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return [];
  if (!etcdServers?.length) throw new EtcdOverridesError('--etcd-servers-overrides needs --etcd-servers (without it objects are stored in SQLite)');
  const out: EtcdServersOverride[] = [];
  for (const item of items) {
    const tokens = item.split('#');
    if (tokens.length !== 2) throw new EtcdOverridesError(FORMAT);
    const gr = tokens[0].split('/');
    if (gr.length !== 2 || gr[1] === '') throw new EtcdOverridesError(FORMAT);
    const servers = tokens[1]
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    if (servers.length === 0) throw new EtcdOverridesError(FORMAT);
    out.push({ group: gr[0], resource: gr[1], servers });
  }
  return out;
}
