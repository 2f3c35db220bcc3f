// Types of scripts/code-cache.mjs (the build's code cache step) for the tests that import it.

export interface Metafile {
  outputs: Record<string, { bytes: number; imports: { path: string; kind: string; external?: boolean }[]; exports: string[]; entryPoint?: string }>;
}
/** The chunks that the entry points import statically (transitively), largest first. */
export function startupChunks(metafile: Metafile, entries: string[]): string[];
/** Rewrites one chunk: <chunk>.js becomes an ES module shell, the body goes to <chunk>.body.cjs. */
export function wrapChunk(root: string, chunk: string, exportNames: string[]): Promise<void>;
/** code with every import(...) call made a call of the function named fn. */
export function dynamicImportsVia(code: string, fn: string): Promise<string>;
/** Starts the compiled server in a child process and writes the cache files of what it loaded; their paths. */
export function produceCaches(root: string): string[];
/** Copies the runtime loader into dist/. */
export function installLoader(root: string): void;
/** The chunks the generated API's loader imports at every start. */
export function generatedChunks(metafile: Metafile & { inputs: Record<string, { imports: { path: string; kind: string }[] }> }): string[];
/** Exported names of a CommonJS body whose binding is assigned after its declaration. */
export function reassignedExports(body: string): string[];
/** Per module a CommonJS body requires, the property names it reads of it. */
export function namesReadPerSpec(body: string): Map<string, Set<string>>;
