// Unused exports of runtime/ and codegen/: the real tree has none (rules in
// unused-exports.ts), and the checker itself, row by row, on small in-memory trees.

import { describe, expect, it } from 'vitest';
import { projectFiles, unusedExports, PROJECT_RULES, type UnusedExport } from './unused-exports.ts';
import { projectRoot } from '../support/clients.ts';

/**
 * Exports nothing uses yet, each with the reason it stays. An entry that
 * becomes used (or goes away) fails the test too, so the list only shrinks.
 */
const PENDING: { file: string; name: string; why: string }[] = [];

describe('unused exports', () => {
  it('runtime/ and codegen/ export nothing that no other file uses (apart from the pending list)', () => {
    const files = projectFiles(projectRoot);
    expect(files.size).toBeGreaterThan(300);
    const found = unusedExports(files, PROJECT_RULES);
    const pending = new Set(PENDING.map((p) => `${p.file}: ${p.name}`));
    expect(
      found
        .map((u) => `${u.file}: ${u.name}`)
        .filter((k) => !pending.has(k))
        .map((k) => `${k} (${found.find((u) => `${u.file}: ${u.name}` === k)!.why})`),
    ).toEqual([]);
    const stillUnused = new Set(found.map((u) => `${u.file}: ${u.name}`));
    expect([...pending].filter((k) => !stillUnused.has(k)).map((k) => `${k} is used now: remove it from PENDING`)).toEqual([]);
  }, 120_000);

  const tree = (files: Record<string, string>) => new Map(Object.entries(files));
  const nothing = (file: string, name: string): UnusedExport => ({ file, name, why: 'nothing imports it and its own file does not use it' });
  const onlyTests = (file: string, name: string): UnusedExport => ({ file, name, why: 'only tests import it and its own file does not use it' });

  const rows: [string, Record<string, string>, UnusedExport[]][] = [
    [
      'a named import uses an export',
      {
        'runtime/a.ts': 'export function f() {}\nexport const g = 1;',
        'runtime/b.ts': "import { f } from './a.ts';\nf();",
      },
      [nothing('runtime/a.ts', 'g')],
    ],
    [
      'renamed and type-only imports count',
      {
        'runtime/a.ts': 'export interface T { x: number }\nexport function f() {}',
        'runtime/b.ts': "import { f as h, type T } from './a.ts';\nconst t: T = { x: h() ?? 1 };",
      },
      [],
    ],
    [
      'every declaration form is an export',
      {
        'runtime/a.ts': 'export class C {}\nexport enum E { A }\nexport type T = 1;\nexport let v = 1, w = 2;\nexport const { d } = { d: 1 };\nexport default function () {}',
        'runtime/b.ts': "import { w } from './a.ts';\nw;",
      },
      ['C', 'E', 'T', 'd', 'default', 'v'].map((n) => nothing('runtime/a.ts', n)),
    ],
    [
      'an export list and a default import',
      {
        'runtime/a.ts': 'const x = 1, y = 2;\nexport { x, y as z };\nexport default x;',
        'runtime/b.ts': "import d, { z } from './a.ts';\nd + z;",
      },
      [],
    ],
    [
      'an export its own file uses is not reported',
      {
        'runtime/a.ts': 'export const LIMIT = 3;\nexport function f() { return LIMIT; }',
        'runtime/b.ts': "import { f } from './a.ts';\nf();",
      },
      [],
    ],
    [
      'a namespace import uses only the members it reads',
      {
        'runtime/a.ts': 'export const x = 1;\nexport const y = 2;\nexport type T = number;',
        'runtime/b.ts': "import * as a from './a.ts';\nconst v: a.T = a.x;",
      },
      [nothing('runtime/a.ts', 'y')],
    ],
    [
      'a namespace passed on as a whole uses everything',
      {
        'runtime/a.ts': 'export const x = 1;\nexport const y = 2;',
        'runtime/b.ts': "import * as a from './a.ts';\nconsole.log(a);",
      },
      [],
    ],
    [
      'a dynamic import uses everything',
      {
        'runtime/a.ts': 'export const x = 1;',
        'runtime/b.ts': "await import('./a.ts');",
      },
      [],
    ],
    [
      'export * passes names on to importers of the barrel',
      {
        'runtime/a.ts': 'export const x = 1;\nexport const y = 2;',
        'runtime/index2.ts': "export * from './a.ts';",
        'runtime/b.ts': "import { x } from './index2.ts';\nx;",
      },
      [nothing('runtime/a.ts', 'y')],
    ],
    [
      'an unused re-export is reported in the barrel',
      {
        'runtime/a.ts': 'export const x = 1;\nexport const y = 2;',
        'runtime/barrel.ts': "export { x, y } from './a.ts';",
        'runtime/b.ts': "import { x } from './barrel.ts';\nx;",
      },
      [nothing('runtime/barrel.ts', 'y')],
    ],
    [
      'what the public entry re-exports is used',
      {
        'runtime/server/start.ts': 'export function startServer() {}\nexport interface StartOptions {}',
        'runtime/index.ts': "export { startServer } from './server/start.ts';\nexport type { StartOptions } from './server/start.ts';",
      },
      [],
    ],
    [
      'an export only tests import is dead code',
      {
        'runtime/a.ts': 'export function live() {}\nexport function dead() {}',
        'runtime/b.ts': "import { live } from './a.ts';\nlive();",
        'runtime/a.test.ts': "import { dead } from './a.ts';\ndead();",
      },
      [onlyTests('runtime/a.ts', 'dead')],
    ],
    [
      'a helper its own file uses may be exported for its test',
      {
        'runtime/a.ts': 'export function helper() {}\nexport function main() { helper(); }',
        'runtime/b.ts': "import { main } from './a.ts';\nmain();",
        'runtime/a.test.ts': "import { helper } from './a.ts';\nhelper();",
      },
      [],
    ],
    [
      'a file only tests import is test support',
      {
        'runtime/apply/scenarios/run.ts': 'export function runScenario() {}',
        'test/x.test.ts': "import { runScenario } from '../runtime/apply/scenarios/run.ts';\nrunScenario();",
        'bench/b.ts': "import { runScenario } from '../runtime/apply/scenarios/run.ts';\nrunScenario();",
      },
      [],
    ],
    [
      'a re-export that tests import is kept',
      {
        'runtime/errors.ts': 'export class E extends Error {}\nexport function f() { throw new E(); }',
        'runtime/barrel.ts': "export { E, f } from './errors.ts';",
        'runtime/b.ts': "import { f } from './barrel.ts';\nf();",
        'test/t.test.ts': "import { E } from '../runtime/barrel.ts';\nE;",
      },
      [],
    ],
    [
      'a local that shadows an export counts as a use (scopes are not modelled)',
      {
        'runtime/a.ts': 'export function g() {}\nexport function h() { return 1; }\nfunction k(h: number) { return h; }\nk(1);',
        'runtime/b.ts': "import { g } from './a.ts';\ng();",
      },
      [],
    ],
    [
      'test files, templates and other folders are not checked',
      {
        'runtime/a.test.ts': 'export const fixture = 1;',
        'codegen/templates/api-types.ts': 'export interface ResourceDef {}',
        'codegen/proto/meta-types.ts': 'export interface ProtoPackageMeta {}',
        'test/support/x.ts': 'export const unused = 1;',
        'generated/registry.ts': 'export const resources = [];',
      },
      [],
    ],
    [
      'a declaration or a property of the same name is not a use',
      {
        'runtime/a.ts': 'export const name = 1;\nconst o = { name: 2 };\no.name;\ninterface I { name: string }\nconst { name: n }: I = { name: "" };\nn;',
      },
      [nothing('runtime/a.ts', 'name')],
    ],
    [
      'an export list of a local declaration',
      {
        'runtime/a.ts': 'const x = 1;\nconst y = 2;\nexport { x, y };',
        'runtime/b.ts': "import { x } from './a.ts';\nx;",
      },
      [nothing('runtime/a.ts', 'y')],
    ],
    [
      'package imports are ignored',
      {
        'runtime/a.ts': "import { Hono } from 'hono';\nexport const app = new Hono();",
      },
      [nothing('runtime/a.ts', 'app')],
    ],
  ];
  it.each(rows)('%s', (_name, files, want) => {
    expect(unusedExports(tree(files), PROJECT_RULES)).toEqual(want);
  });
});
