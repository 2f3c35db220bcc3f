// Tests of the static token file: rows to users, upstream's skip/duplicate rules, start-up errors naming the line.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from './file-error.ts';
import { loadTokenFile, parseTokenFile } from './token-file.ts';

const FILE = `tok1,alice,1001,"dev,ops"
tok2,bob,1002
tok3,carol,,admins,ignored,extra

"tok,4",dave,1004,""
`;

describe('token file', () => {
  const { authenticator, warnings } = parseTokenFile('/etc/tokens.csv', FILE);
  const rows: [string, string, unknown][] = [
    ['groups from the quoted fourth column', 'tok1', { user: { name: 'alice', uid: '1001', groups: ['dev', 'ops'] } }],
    ['no fourth column: no groups', 'tok2', { user: { name: 'bob', uid: '1002', groups: [] } }],
    ['empty uid, extra columns ignored', 'tok3', { user: { name: 'carol', groups: ['admins'] } }],
    ['a quoted token with a comma; an empty group column as upstream', 'tok,4', { user: { name: 'dave', uid: '1004', groups: [''] } }],
    ['unknown token: not ours', 'tok5', undefined],
    ['a prefix of a token is unknown', 'tok', undefined],
    ['empty token', '', undefined],
  ];
  it.each(rows)('%s', async (_name, token, want) => {
    expect(await authenticator.authenticateToken(token, [])).toEqual(want);
  });
  it('has no warnings for a clean file', () => {
    expect(warnings).toEqual([]);
  });

  it('returns a copy: callers cannot change the stored user', async () => {
    const a = await authenticator.authenticateToken('tok1', []);
    a!.user.groups.push('system:masters');
    expect((await authenticator.authenticateToken('tok1', []))!.user.groups).toEqual(['dev', 'ops']);
  });

  it('skips empty tokens and lets a duplicate replace the earlier row, with warnings that name no token', async () => {
    const f = parseTokenFile('t.csv', 'secret1,a,1\n,b,2\nsecret1,c,3\n');
    expect(f.warnings).toEqual(["empty token has been found in token file 't.csv', record number '2' (line 2)", "duplicate token has been found in token file 't.csv', record number '3' (line 3)"]);
    expect((await f.authenticator.authenticateToken('secret1', []))!.user.name).toBe('c');
    expect(f.warnings.join('')).not.toContain('secret1');
  });

  const bad: [string, string, string, number | undefined][] = [
    ['two fields', 'a,b,c\n\nsecretx,bob\n', "token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 2 (line 3)", 3],
    ['one field', 'secretx\n', "token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 1 (line 1)", 1],
    ['bad quoting', 'a,b,c\nx"y,b,c\n', "token file 'f.csv': parse error on line 2, column 2: bare \" in non-quoted-field", 2],
  ];
  it.each(bad)('refuses a file with %s', (_name, text, message, line) => {
    let caught: unknown;
    try {
      parseTokenFile('f.csv', text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FileError);
    expect((caught as FileError).message).toBe(message);
    expect((caught as FileError).line).toBe(line);
    expect((caught as FileError).path).toBe('f.csv');
    expect((caught as FileError).message).not.toContain('secretx');
  });

  it('loads from disk, and a missing file is a FileError naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokfile-'));
    const path = join(dir, 'tokens.csv');
    writeFileSync(path, 'abc,eve,9\n');
    expect((await loadTokenFile(path).authenticator.authenticateToken('abc', []))!.user.name).toBe('eve');
    expect(() => loadTokenFile(join(dir, 'missing.csv'))).toThrow(FileError);
    expect(() => loadTokenFile(join(dir, 'missing.csv'))).toThrow(/missing\.csv/);
  });
});
