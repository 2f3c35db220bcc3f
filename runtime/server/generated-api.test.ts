// The generated API as the server loads it: the merge schema is data read on
// first use (a server that writes nothing never parses it: test/e2e/compiled),
// the same object before and after, with what a user adds to it kept; the
// data is the generated module's.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeSchema as generatedMergeSchema } from '../../generated/merge-schema.ts';
import { lazyMergeSchema, loadGeneratedApi } from './generated-api.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the merge schema', () => {
  it('is read from its file on first access only, and keeps what is added to it', () => {
    dir = mkdtempSync(join(tmpdir(), 'merge-schema-'));
    const file = join(dir, 'merge-schema.json');
    // the file is not there yet: making the schema reads nothing
    const schema = lazyMergeSchema(file);
    writeFileSync(file, JSON.stringify({ types: { a: { scalar: 'string' } } }));
    expect(schema.types.a).toEqual({ scalar: 'string' });
    // read once: a later change of the file is not seen, an added type is kept
    writeFileSync(file, JSON.stringify({ types: {} }));
    schema.types.b = { scalar: 'numeric' };
    expect(Object.keys(schema.types)).toEqual(['a', 'b']);
  });

  it('missing is an error when first used, not when made', () => {
    const schema = lazyMergeSchema(join(tmpdir(), 'no-such-dir', 'merge-schema.json'));
    expect(() => schema.types).toThrow(/ENOENT/);
  });

  it('of the project is the generated data', async () => {
    const api = await loadGeneratedApi();
    expect(api.mergeSchema.types).toEqual(generatedMergeSchema.types);
  });
});
