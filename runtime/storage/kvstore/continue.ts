// Continue tokens of chunked lists: opaque to clients, they carry the list's
// revision and the next key (relative to the listed prefix), in the shape
// kube-apiserver uses (base64url of {"v","rv","start"}), so they survive a
// restart and work across replicas. rv = -1 means "go on at the latest
// revision" (handed out with a 410 when the original revision is compacted).
import { InvalidRequestError } from '../interface.ts';

const VERSION = 'meta.k8s.io/v1';

export function encodeContinue(nextKey: string, prefix: string, rev: number): string {
  if (!nextKey.startsWith(prefix)) throw new Error('unable to encode next field: the key and key prefix do not match');
  const body = JSON.stringify({ v: VERSION, rv: rev, start: nextKey.slice(prefix.length) });
  return Buffer.from(body, 'utf8').toString('base64url');
}

/** A token that cannot be used: the HTTP layer answers 400 BadRequest. */
export class ContinueTokenError extends InvalidRequestError {
  constructor(detail: string) {
    super(`invalid continue token: continue key is not valid${detail ? ': ' + detail : ''}`);
  }
}

/** Decodes a token into the absolute start key and its revision (-1: latest). */
export function decodeContinue(token: string, prefix: string): { startKey: string; rev: number } {
  const bad = token.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0 || token.length % 4 === 1) {
    const at = bad >= 0 ? bad : token.length - 1;
    throw new ContinueTokenError(`illegal base64 data at input byte ${at}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw new ContinueTokenError((err as Error).message);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ContinueTokenError('json: cannot unmarshal into Go value of type storage.continueToken');
  }
  const c = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (c.v !== VERSION) throw new ContinueTokenError('server does not recognize this encoded version');
  if (typeof c.rv !== 'number' || !Number.isInteger(c.rv) || c.rv === 0) {
    throw new ContinueTokenError(`incorrect encoded start resourceVersion (version ${VERSION})`);
  }
  if (typeof c.start !== 'string' || c.start === '') {
    throw new ContinueTokenError(`encoded start key empty (version ${VERSION})`);
  }
  // The start key must be a clean path below the prefix (no `..`, `//`, `.`).
  const key = c.start.startsWith('/') ? c.start : '/' + c.start;
  if (cleanPath(key) !== key) throw new ContinueTokenError(c.start);
  return { startKey: prefix + key.slice(1), rev: c.rv };
}

/** Lexical path cleaning in the manner of Go's path.Clean, keeping a trailing NUL. */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return '/' + out.join('/');
}
