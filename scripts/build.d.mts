// Types of scripts/build.mjs (the build step) for the tests that import it.

/** The source files whose size or modification time differ from the last build's (a note when there was none). */
export function staleInputs(root?: string): string[];
/** Builds dist/ afresh; returns how many source files went in. */
export function build(root?: string): Promise<number>;
/** `text` with every character beyond ASCII written as its \u escape (UTF-16 code units). */
export function asciiOnly(text: string): string;
