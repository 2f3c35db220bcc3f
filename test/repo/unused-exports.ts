// The unused-export check: which exported names of runtime/ and codegen/
// files no other file imports. Files are parsed with the TypeScript compiler
// API (no type checking); pure functions over an in-memory file map, so the
// rules can be tested on small synthetic trees as well as on the real one.
//
// The rules:
// - An export is used when another non-test file imports it (by name, through
//   `export { x } from`, `export * from`, `import * as ns` or `import()`).
//   The public entry files (runtime/index.ts) re-export the package's API, so
//   what they re-export counts as used.
// - A re-export (`export { x } from`) is only a path to a declaration that is
//   checked in its own file: any importer, tests included, keeps it.
// - Tests (`*.test.ts`, test/, bench/) count as importers only for exports
//   that exist for tests: those of a file no non-test file imports (a test
//   helper kept beside the code, e.g. runtime/apply/scenarios/), and helpers
//   that their own file also uses (exported so that their unit test can reach
//   them). An export that only tests import and that its own file does not
//   use is dead code kept alive by its tests, and is reported.
// - An export its own file uses is live code and is not reported even when no
//   other file imports it (whether it needs the `export` keyword is left
//   alone: dropping those keywords would touch some 240 declarations for no
//   behaviour).
// - Not checked: test files, the public entry files' own exports, and the
//   files codegen copies into generated/ as text, which are imported there
//   (codegen/templates/, codegen/proto/meta-types.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

export interface UnusedExport {
  file: string;
  name: string;
  why: string;
}

export interface CheckOptions {
  /** Files whose exports are checked (repository paths). */
  checked: (file: string) => boolean;
  /** Test and benchmark files: importers that count only for exports that exist for tests. */
  isTest: (file: string) => boolean;
  /** Public entry files: their own exports are the package's API and are not reported. */
  entries: string[];
}

/** Files codegen copies into generated/ verbatim: their users import the copy. */
const COPIED_INTO_GENERATED = ['codegen/templates/', 'codegen/proto/meta-types.ts'];

/** Where the project's files count: runtime/ and codegen/ are checked; tests and benchmarks are test importers. */
export const PROJECT_RULES: CheckOptions = {
  checked: (f) => (f.startsWith('runtime/') || f.startsWith('codegen/')) && !COPIED_INTO_GENERATED.some((p) => f.startsWith(p)) && !f.endsWith('.test.ts'),
  isTest: (f) => f.endsWith('.test.ts') || f.startsWith('test/') || f.startsWith('bench/'),
  entries: ['runtime/index.ts'],
};

interface ParsedFile {
  /** Exported name -> the local name it is declared under (undefined for re-exports of another file). */
  exports: Map<string, string | undefined>;
  /** Imported names per resolved target; '*' stands for every export. */
  imports: Map<string, Set<string>>;
  /** Files whose every export this file passes on (`export * from`). */
  starExports: Set<string>;
  /** Local names referenced in the file other than where they are declared or exported. */
  references: Set<string>;
}

const hasExportKeyword = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const hasDefaultKeyword = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

function bindingNames(name: ts.BindingName, out: string[] = []): string[] {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
  return out;
}

/** Resolves a relative module specifier of `from` to a repository path; undefined for packages. */
export function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), spec));
}

/** Exports, imports and local references of one file. */
export function parseFile(path: string, text: string): ParsedFile {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const exports = new Map<string, string | undefined>();
  const imports = new Map<string, Set<string>>();
  const starExports = new Set<string>();
  const namespaces = new Map<string, string>();
  const addImport = (spec: string, name: string) => {
    const target = resolveSpecifier(path, spec);
    if (!target) return;
    if (!imports.has(target)) imports.set(target, new Set());
    imports.get(target)!.add(name);
  };

  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (!clause) continue;
      if (clause.name) addImport(spec, 'default');
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) namespaces.set(nb.name.text, spec);
      else if (nb) for (const el of nb.elements) addImport(spec, (el.propertyName ?? el.name).text);
    } else if (ts.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        const target = spec && resolveSpecifier(path, spec);
        if (target) starExports.add(target);
      } else if (ts.isNamespaceExport(st.exportClause)) {
        if (spec) addImport(spec, '*');
        exports.set(st.exportClause.name.text, undefined);
      } else {
        for (const el of st.exportClause.elements) {
          const local = (el.propertyName ?? el.name).text;
          if (spec) {
            addImport(spec, local);
            exports.set(el.name.text, undefined);
          } else exports.set(el.name.text, local);
        }
      }
    } else if (ts.isExportAssignment(st)) {
      exports.set('default', ts.isIdentifier(st.expression) ? st.expression.text : undefined);
    } else if (hasExportKeyword(st)) {
      const isDefault = hasDefaultKeyword(st);
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          for (const n of bindingNames(d.name)) exports.set(n, n);
        }
      } else if (
        ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st) ||
        ts.isModuleDeclaration(st)
      ) {
        const id = st.name && ts.isIdentifier(st.name) ? st.name : undefined;
        exports.set(isDefault ? 'default' : id!.text, id?.text);
      }
    }
  }

  // References: identifiers that read a name (not declarations, not property
  // names, not import/export clauses); namespace imports resolve `ns.x` to x.
  // Scopes are not modelled: a local that shadows an export counts as a use.
  const references = new Set<string>();
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = n.arguments[0];
      if (arg && ts.isStringLiteral(arg)) addImport(arg.text, '*');
    }
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && namespaces.has(n.expression.text)) {
      addImport(namespaces.get(n.expression.text)!, n.name.text);
      return;
    }
    if (ts.isQualifiedName(n) && ts.isIdentifier(n.left) && namespaces.has(n.left.text)) {
      addImport(namespaces.get(n.left.text)!, n.right.text);
      return;
    }
    if (ts.isIdentifier(n)) {
      if (namespaces.has(n.text))
        addImport(namespaces.get(n.text)!, '*'); // the namespace used as a whole
      else if (isReference(n)) references.add(n.text);
      return;
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(sf, visit);
  return { exports, imports, starExports, references };
}

/**
 * Whether an identifier reads a name in scope, rather than declaring one or
 * naming a property (`a.x`, `{ x: 1 }`, `ns.T`, `{ x: y } = o`). `{ x }` reads x.
 */
function isReference(n: ts.Identifier): boolean {
  const p = n.parent;
  if (ts.isShorthandPropertyAssignment(p)) return true;
  if ((p as { name?: ts.Node }).name === n) return false;
  if (ts.isBindingElement(p) && p.propertyName === n) return false;
  if (ts.isQualifiedName(p) && p.right === n) return false;
  return true;
}

/** Every unused export of the checked files, sorted by file and name. */
export function unusedExports(files: Map<string, string>, opts: CheckOptions): UnusedExport[] {
  const parsed = new Map<string, ParsedFile>();
  for (const [path, text] of files) parsed.set(path, parseFile(path, text));

  // who imports what: target -> name -> importing files ('*' = every name)
  const importers = new Map<string, Map<string, Set<string>>>();
  for (const [from, p] of parsed) {
    for (const [target, names] of p.imports) {
      if (target === from) continue;
      if (!importers.has(target)) importers.set(target, new Map());
      const byName = importers.get(target)!;
      for (const n of names) {
        if (!byName.has(n)) byName.set(n, new Set());
        byName.get(n)!.add(from);
      }
    }
  }
  // `export * from` passes names on: an import of the re-exporting file reaches the target
  const reExportAll = new Map<string, string[]>();
  for (const [from, p] of parsed)
    for (const target of p.starExports) {
      if (!reExportAll.has(target)) reExportAll.set(target, []);
      reExportAll.get(target)!.push(from);
    }

  const usersOf = (file: string, name: string, seen = new Set<string>()): Set<string> => {
    const out = new Set<string>();
    if (seen.has(file)) return out;
    seen.add(file);
    const byName = importers.get(file);
    for (const f of byName?.get(name) ?? []) out.add(f);
    for (const f of byName?.get('*') ?? []) out.add(f);
    for (const via of reExportAll.get(file) ?? []) for (const f of usersOf(via, name, seen)) out.add(f);
    return out;
  };
  const importedByProduction = (file: string, seen = new Set<string>()): boolean => {
    if (seen.has(file)) return false;
    seen.add(file);
    for (const [, fromFiles] of importers.get(file) ?? new Map<string, Set<string>>()) {
      for (const f of fromFiles) if (!opts.isTest(f)) return true;
    }
    return (reExportAll.get(file) ?? []).some((via) => importedByProduction(via, seen));
  };

  const out: UnusedExport[] = [];
  for (const [file, p] of parsed) {
    if (!opts.checked(file) || opts.entries.includes(file)) continue;
    const testSupport = !importedByProduction(file);
    for (const [name, local] of p.exports) {
      const users = [...usersOf(file, name)];
      if (users.some((f) => !opts.isTest(f))) continue;
      if (local !== undefined && p.references.has(local)) continue;
      if (local === undefined && users.length > 0) continue; // a re-export: the declaration is checked in its own file
      if (users.length === 0) out.push({ file, name, why: 'nothing imports it and its own file does not use it' });
      else if (!testSupport) out.push({ file, name, why: 'only tests import it and its own file does not use it' });
    }
  }
  return out.sort((a, b) => (a.file === b.file ? (a.name < b.name ? -1 : 1) : a.file < b.file ? -1 : 1));
}

/** The .ts files of the project that take part (runtime, codegen, generated, test, bench), as repository paths -> text. */
export function projectFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) files.set(relative(root, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  for (const top of ['runtime', 'codegen', 'generated', 'test', 'bench']) walk(join(root, top));
  return files;
}
