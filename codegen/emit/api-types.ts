// Emits generated/api-types.ts: the runtime contract, copied verbatim from
// codegen/templates/api-types.ts below the generated-file header.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_HEADER } from './printer.ts';

export function emitApiTypes(templatesDir: string): string {
  return `${GENERATED_HEADER}\n${readFileSync(join(templatesDir, 'api-types.ts'), 'utf8')}`;
}
