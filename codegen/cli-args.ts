// Command-line arguments of the codegen CLI: `[--specs DIR] [--out DIR]`,
// defaulting to the project's api-specs/ and generated/.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function parseArgs(argv: string[], cwd = process.cwd()): { specs: string; out: string } {
  let specs = join(root, 'api-specs');
  let out = join(root, 'generated');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a directory`);
      return resolve(cwd, v);
    };
    if (a === '--specs') specs = value();
    else if (a === '--out') out = value();
    else if (a.startsWith('--specs=')) specs = resolve(cwd, a.slice(8));
    else if (a.startsWith('--out=')) out = resolve(cwd, a.slice(6));
    else throw new Error(`unknown argument ${JSON.stringify(a)} (usage: codegen [--specs DIR] [--out DIR])`);
  }
  return { specs, out };
}
