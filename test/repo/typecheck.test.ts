// The whole project (codegen, generated, runtime, tests, benches) passes the
// strict TypeScript check: tsx and vitest strip types without checking them.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../support/clients.ts';

describe('typescript', () => {
  it('tsc --noEmit passes', () => {
    const r = spawnSync(process.execPath, [join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', projectRoot], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 300_000);
});
