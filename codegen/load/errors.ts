// The error codegen fails with: a message that names the spec file and the
// JSON path inside it. Loaders throw it; the CLI prints it and exits 1.

export class CodegenError extends Error {
  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly detail: string,
  ) {
    super(`${file}: ${jsonPath}: ${detail}`);
    this.name = 'CodegenError';
  }
}

/** JSON path segment: `.name` for identifiers, `["a/b"]` otherwise. */
export function jp(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}
