// The error codegen fails with: a message that names the spec file and the
// JSON path inside it. Loaders throw it; the CLI prints it and exits 1.

export { jp } from '../../runtime/schema/util.ts';

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
