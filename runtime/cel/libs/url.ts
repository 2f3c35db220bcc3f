// Kubernetes URL library: `url(string)`, `isURL(string)`, and on a URL
// `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`,
// `getQuery`. A URL must be absolute (has a scheme) or an absolute path, as
// Go's url.ParseRequestURI requires. Boundary: parsing and these functions.
import { CelScalar, type CelFunc } from '@bufbuild/cel';
import { Opaque, fail, defFunc, defMethod } from '../opaque.ts';

export interface ParsedURL {
  scheme: string;
  host: string;
  path: string;
  rawQuery: string;
}

export function parseRequestURL(s: string): ParsedURL | undefined {
  if (s === '' || /[\x00-\x1f\x7f ]/.test(s)) return undefined;
  let rest = s;
  let scheme = '';
  const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (sm) {
    scheme = sm[1];
    rest = rest.slice(sm[0].length);
  } else if (!rest.startsWith('/')) return undefined;
  let rawQuery = '';
  const qi = rest.indexOf('?');
  if (qi >= 0) {
    rawQuery = rest.slice(qi + 1);
    rest = rest.slice(0, qi);
  }
  let host = '';
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    host = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    const at = host.lastIndexOf('@');
    if (at >= 0) host = host.slice(at + 1);
    if (host.startsWith('[') ? !/^\[[0-9a-fA-F:.]+(%[^\]]+)?\](:\d*)?$/.test(host) : !/^[^[\]:]*(:\d*)?$/.test(host)) return undefined;
  } else if (scheme && !rest.startsWith('/')) {
    // Opaque forms like `mailto:x` are not request URIs.
    return undefined;
  }
  if (/%(?![0-9a-fA-F]{2})/.test(rest)) return undefined;
  return { scheme, host, path: rest, rawQuery };
}

export class URLValue extends Opaque {
  readonly name = 'kubernetes.URL';
  constructor(
    readonly raw: string,
    readonly u: ParsedURL,
  ) {
    super();
  }
  equals(o: Opaque): boolean {
    return o instanceof URLValue && o.raw === this.raw;
  }
  override toString(): string {
    return this.raw;
  }
  hostname(): string {
    const h = this.u.host;
    if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
    const c = h.lastIndexOf(':');
    return c >= 0 ? h.slice(0, c) : h;
  }
  port(): string {
    const h = this.u.host;
    const after = h.startsWith('[') ? h.slice(h.indexOf(']') + 1) : h.slice(Math.max(h.lastIndexOf(':'), h.length));
    const c = h.startsWith('[') ? after : h.includes(':') ? h.slice(h.lastIndexOf(':')) : '';
    return c.startsWith(':') ? c.slice(1) : '';
  }
  query(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    if (!this.u.rawQuery) return out;
    for (const part of this.u.rawQuery.split('&')) {
      if (!part || part.includes(';')) continue;
      const eq = part.indexOf('=');
      const dec = (x: string) => {
        try {
          return decodeURIComponent(x.replace(/\+/g, ' '));
        } catch {
          return undefined;
        }
      };
      const k = dec(eq < 0 ? part : part.slice(0, eq));
      const v = dec(eq < 0 ? '' : part.slice(eq + 1));
      if (k === undefined || v === undefined) continue;
      const l = out.get(k) ?? [];
      l.push(v);
      out.set(k, l);
    }
    return out;
  }
}

function u(v: unknown): URLValue {
  return v instanceof URLValue ? v : fail('expected a kubernetes.URL');
}
const DYN = CelScalar.DYN;
const S = CelScalar.STRING;

export const urlFuncs: CelFunc[] = [
  defFunc('url', [S], DYN, (s) => {
    const p = parseRequestURL(s);
    return p ? new URLValue(s, p) : fail(`URL parse error during conversion from string: parse "${s}": invalid URL`);
  }),
  defFunc('isURL', [S], CelScalar.BOOL, (s) => parseRequestURL(s) !== undefined),
  defMethod('getScheme', DYN, [], S, function () {
    return u(this).u.scheme;
  }),
  defMethod('getHost', DYN, [], S, function () {
    return u(this).u.host;
  }),
  defMethod('getHostname', DYN, [], S, function () {
    return u(this).hostname();
  }),
  defMethod('getPort', DYN, [], S, function () {
    return u(this).port();
  }),
  defMethod('getEscapedPath', DYN, [], S, function () {
    return u(this).u.path;
  }),
  defMethod('getQuery', DYN, [], DYN, function () {
    return u(this).query();
  }),
];
