// sqliteAddon(): the addon file inside the better-sqlite3 package, which a
// database opened with it as its nativeBinding uses.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteAddon } from './addon.ts';

const packageDir = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));

describe('sqliteAddon', () => {
  it('names the addon file of the installed package', () => {
    const addon = sqliteAddon();
    expect(addon).toBe(join(packageDir, 'build', 'Release', 'better_sqlite3.node'));
    expect(existsSync(addon!)).toBe(true);
  });

  it('opens a database as the default addon search does', () => {
    const db = new Database(':memory:', { nativeBinding: sqliteAddon() });
    try {
      expect(db.prepare('SELECT sqlite_version() AS v').get()).toEqual({ v: expect.stringMatching(/^3\./) });
    } finally {
      db.close();
    }
  });
});
