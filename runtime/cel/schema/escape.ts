// Property-name escaping between OpenAPI property names and CEL identifiers,
// as Kubernetes defines it for CRD validation rules: `__` -> `__underscores__`,
// `.` -> `__dot__`, `-` -> `__dash__`, `/` -> `__slash__`, and a name equal to a
// CEL reserved word `w` -> `__w__`. Names outside the accessible pattern have
// no CEL spelling. Boundary: names only; no schema or AST knowledge.

export const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ACCESSIBLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL identifier for a property name, or undefined when it cannot be accessed from CEL. */
export function escapeName(name: string): string | undefined {
  if (!ACCESSIBLE.test(name)) return undefined;
  if (CEL_RESERVED.has(name)) return `__${name}__`;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '_' && name[i + 1] === '_') {
      out += '__underscores__';
      i++;
      continue;
    }
    if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else out += c;
  }
  return out;
}

const TOKENS: [string, string][] = [
  ['__underscores__', '__'],
  ['__dot__', '.'],
  ['__dash__', '-'],
  ['__slash__', '/'],
];

/** The property name a CEL identifier stands for (the inverse of escapeName). */
export function unescapeName(ident: string): string {
  if (ident.startsWith('__') && ident.endsWith('__') && ident.length > 4) {
    const inner = ident.slice(2, -2);
    if (CEL_RESERVED.has(inner)) return inner;
  }
  if (!ident.includes('__')) return ident;
  let out = '';
  let i = 0;
  outer: while (i < ident.length) {
    if (ident.startsWith('__', i)) {
      for (const [tok, rep] of TOKENS) {
        if (ident.startsWith(tok, i)) {
          out += rep;
          i += tok.length;
          continue outer;
        }
      }
    }
    out += ident[i];
    i++;
  }
  return out;
}
