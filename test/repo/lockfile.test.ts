// The lock file must let `npm ci` run on a clean clone: every platform build
// an installed package lists as optional has a record (see .ci/fix-lock.mjs).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/clients.ts';
// @ts-expect-error plain ESM script without types
import { missingPlatformRecords } from '../../.ci/fix-lock.mjs';

describe('package-lock.json', () => {
  it('records every platform-specific optional dependency (run `node .ci/fix-lock.mjs` after npm install)', () => {
    const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8'));
    expect(missingPlatformRecords(lock).map(([k]: [string]) => k)).toEqual([]);
  });
  it('finds a missing record', () => {
    const lock = { packages: { '': {}, 'node_modules/x': { optionalDependencies: { '@x/x-darwin-arm64': '1.0.0' } } } };
    expect(missingPlatformRecords(lock)).toEqual([['node_modules/@x/x-darwin-arm64', { version: '1.0.0', cpu: ['arm64'], optional: true, os: ['darwin'] }]]);
  });
});
