// The Accept header as kube-openapi's OpenAPI handlers read it (the
// goautoneg rules): clauses sorted by q, a specific type before a wildcard
// at equal q, types compared as written; the first clause that matches one
// of the offered forms (JSON, then the two protobuf spellings) picks it.

export interface AcceptClause {
  type: string;
  subType: string;
  q: number;
}

export function parseAcceptClauses(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const [range, ...params] = raw.trim().split(';');
    const parts = range.split('/');
    const type = parts[0].trim();
    let subType: string;
    if (parts.length === 1 && type === '*') subType = '*';
    else if (parts.length === 2) subType = parts[1].trim();
    else continue;
    let q = 1;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      if (p.slice(0, eq).trim() === 'q') {
        // a q that does not parse counts as 0 (Go's ParseFloat error leaves 0)
        const n = Number(p.slice(eq + 1).trim());
        q = Number.isNaN(n) ? 0 : n;
      }
    }
    out.push({ type, subType, q });
  }
  const rank = (a: AcceptClause, b: AcceptClause) => {
    if (a.q !== b.q) return b.q - a.q;
    if ((a.type === '*') !== (b.type === '*')) return a.type === '*' ? 1 : -1;
    if ((a.subType === '*') !== (b.subType === '*')) return a.subType === '*' ? 1 : -1;
    return 0;
  };
  return out.sort(rank);
}

/** The protobuf media type of the v2 document, and the older spelling clients (kubectl 1.31) still ask for. */
export const MEDIA_OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
export const MEDIA_OPENAPI_V2_PROTOBUF_OLD = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

const OFFERED: readonly { subType: string; form: 'json' | 'protobuf' }[] = [
  { subType: 'json', form: 'json' },
  { subType: MEDIA_OPENAPI_V2_PROTOBUF_OLD.slice('application/'.length), form: 'protobuf' },
  { subType: MEDIA_OPENAPI_V2_PROTOBUF.slice('application/'.length), form: 'protobuf' },
];

/** The form of /openapi/v2 an Accept header gets (no header is any), or undefined: 406. */
export function v2Form(accept: string | undefined): 'json' | 'protobuf' | undefined {
  for (const c of parseAcceptClauses(accept || '*/*'))
    for (const o of OFFERED) {
      if (c.type !== 'application' && c.type !== '*') continue;
      if (c.subType !== o.subType && c.subType !== '*') continue;
      return o.form;
    }
  return undefined;
}

/** Whether an Accept header takes the JSON form of a v3 document (the only form served of v3). */
export function v3JSONAcceptable(accept: string | undefined): boolean {
  return parseAcceptClauses(accept || '*/*').some((c) => (c.type === 'application' || c.type === '*') && (c.subType === 'json' || c.subType === '*'));
}
