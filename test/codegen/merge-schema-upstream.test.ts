// Cross-check of generated/merge-schema.ts against the upstream 1.31
// OpenAPI v2 document (reference data, not copied): for every type both
// have, every list field has the list relationship and keys the upstream
// markers imply, patch strategy and merge key are kept, and map-type atomic
// types and fields are atomic. Skips when the reference is absent.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Atom, FieldDef } from '../../generated/api-types.ts';
import { mergeSchema } from '../../generated/merge-schema.ts';
import { referenceDir } from './helpers.ts';

const swaggerPath = join(referenceDir, 'openapi', 'swagger-v1.31.json');
const present = existsSync(swaggerPath);
if (!present) console.warn(`skipping merge-schema cross-check: ${swaggerPath} not found`);

type Def = { properties?: Record<string, Record<string, any>>; 'x-kubernetes-map-type'?: string };

function expectedList(p: Record<string, any>): { r: string; k?: string[] } {
  const lt = p['x-kubernetes-list-type'];
  const merge = String(p['x-kubernetes-patch-strategy'] ?? '')
    .split(',')
    .includes('merge');
  const scalar = p.items && ['string', 'integer', 'number', 'boolean'].includes(p.items.type);
  if (lt === 'map') return { r: 'associative', k: p['x-kubernetes-list-map-keys'] };
  if (lt === 'set') return { r: 'associative' };
  if (lt === 'atomic') return { r: 'atomic' };
  if (merge) return scalar ? { r: 'associative' } : { r: 'associative', k: [p['x-kubernetes-patch-merge-key']] };
  return { r: 'atomic' };
}

describe.skipIf(!present || Object.keys(mergeSchema.types).length < 10)('merge schema agrees with upstream markers', () => {
  const defs: Record<string, Def> = present ? JSON.parse(readFileSync(swaggerPath, 'utf8')).definitions : {};
  const shared = Object.keys(defs).filter((n) => mergeSchema.types[n]?.map?.fields);

  it('covers the built-in types', () => {
    expect(shared.length).toBeGreaterThan(100);
  });

  it('list relationships, keys and patch markers', () => {
    const problems: string[] = [];
    let lists = 0;
    for (const name of shared) {
      const fields = new Map<string, FieldDef>(mergeSchema.types[name].map!.fields!.map((f) => [f.name, f]));
      for (const [prop, p] of Object.entries(defs[name].properties ?? {})) {
        const f = fields.get(prop);
        if (!f) continue;
        if ((f.patchStrategy ?? undefined) !== p['x-kubernetes-patch-strategy'] || (f.patchMergeKey ?? undefined) !== p['x-kubernetes-patch-merge-key'])
          problems.push(`${name}.${prop}: patch markers`);
        if (p.type === 'array') {
          lists++;
          const l = f.type.inline?.list;
          const want = expectedList(p);
          if (l?.elementRelationship !== want.r || JSON.stringify(l?.keys) !== JSON.stringify(want.k)) problems.push(`${name}.${prop}: ${JSON.stringify(l)} want ${JSON.stringify(want)}`);
        }
        if (p['x-kubernetes-map-type'] === 'atomic') {
          const rel = f.type.elementRelationship ?? f.type.inline?.map?.elementRelationship ?? (f.type.named ? mergeSchema.types[f.type.named]?.map?.elementRelationship : undefined);
          if (rel !== 'atomic') problems.push(`${name}.${prop}: map-type atomic`);
        }
      }
      if (defs[name]['x-kubernetes-map-type'] === 'atomic' && (mergeSchema.types[name] as Atom).map?.elementRelationship !== 'atomic') problems.push(`${name}: map-type atomic`);
    }
    expect(lists).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
