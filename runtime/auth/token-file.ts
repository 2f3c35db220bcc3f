// The static token file of `--token-auth-file`: a CSV of
// `token,user,uid[,"group1,group2"]` rows (further columns ignored), read
// once at start-up into a TokenAuthenticator. As upstream: a row with fewer
// than 3 fields is an error; a row with an empty token is skipped and a
// repeated token replaces the earlier row (both reported as warnings by
// record number). Tokens are kept only as SHA-256 digests and looked up by
// the digest of the presented token, so neither lookup time nor memory
// reveals a token.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AuthResult, TokenAuthenticator } from './authenticator.ts';
import { parseCsv, CsvError } from './csv.ts';
import { FileError } from './file-error.ts';
import type { UserInfo } from './user.ts';

export interface TokenFile {
  authenticator: TokenAuthenticator;
  /** Rows that were skipped or replaced, for the start-up log (never a token). */
  warnings: string[];
}

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64');
}

/** Parses the file's text; `path` only names the file in messages. */
export function parseTokenFile(path: string, text: string): TokenFile {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw new FileError(path, `token file '${path}': ${err.message}`, err.line);
    throw err;
  }
  const users = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const { fields, line } of records) {
    if (fields.length < 3) {
      throw new FileError(path, `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${fields.length} (line ${line})`, line);
    }
    recordNum++;
    const [token, name, uid] = fields;
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}' (line ${line})`);
      continue;
    }
    const key = digest(token);
    if (users.has(key)) warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}' (line ${line})`);
    const user: UserInfo = { name, groups: fields.length >= 4 ? fields[3].split(',') : [] };
    if (uid !== '') user.uid = uid;
    users.set(key, user);
  }
  return { authenticator: new TokenFileAuthenticator(users), warnings };
}

/** Reads and parses `--token-auth-file`; an unreadable or bad file is a FileError. */
export function loadTokenFile(path: string): TokenFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new FileError(path, `token file '${path}': ${(err as Error).message}`);
  }
  return parseTokenFile(path, text);
}

class TokenFileAuthenticator implements TokenAuthenticator {
  constructor(private readonly users: Map<string, UserInfo>) {}

  async authenticateToken(token: string): Promise<AuthResult | undefined> {
    const user = this.users.get(digest(token));
    if (!user) return undefined;
    return { user: { ...user, groups: [...user.groups] } };
  }
}
