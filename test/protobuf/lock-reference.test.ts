// The committed field-number lock agrees with upstream's generated.proto
// files: rebuilding it from the reference data gives only entries the
// committed lock already has, with the same numbers (codegen may have added
// more: synthesised lists, fields of newer specs).
import { describe, it, expect } from 'vitest';
import { buildLock } from '../../codegen/proto/build-lock.ts';
import { emptyLock, readLock } from '../../codegen/proto/lock.ts';
import { referenceDir } from './reference.ts';

const dir = referenceDir();

describe.skipIf(!dir)('field-number lock vs upstream protos (skipped: reference data absent)', () => {
  it('holds every upstream number, inline struct and wrapper', () => {
    const fresh = emptyLock();
    const report = buildLock(dir!, fresh);
    expect(report.messages).toBeGreaterThan(1000);
    expect(report.unmatched).toEqual([]);
    const committed = readLock();
    const diffs: string[] = [];
    for (const [m, fields] of Object.entries(fresh.messages)) {
      for (const [f, n] of Object.entries(fields)) if (committed.messages[m]?.[f] !== n) diffs.push(`${m}.${f}: ${committed.messages[m]?.[f]} vs upstream ${n}`);
    }
    expect(diffs).toEqual([]);
    expect(committed.inline).toEqual(fresh.inline);
    expect(committed.wrappers).toEqual(fresh.wrappers);
  });
});
