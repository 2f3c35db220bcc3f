// better-sqlite3's native addon, named by its path in the package. Without a
// path the package finds it through `bindings`, which tries a dozen build
// layouts one after another (about 1.5 ms of every start); a layout without
// this file (the addon built some other way) is still left to that search.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Where a package install puts the addon. */
const ADDON_IN_PACKAGE = 'better-sqlite3/build/Release/better_sqlite3.node';

let found: string | null | undefined;

/** The addon file's path, undefined when the package has none there (looked up once). */
export function sqliteAddon(): string | undefined {
  if (found === undefined) {
    try {
      found = require.resolve(ADDON_IN_PACKAGE);
    } catch {
      found = null;
    }
  }
  return found ?? undefined;
}
