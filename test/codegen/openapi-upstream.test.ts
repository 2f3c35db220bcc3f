// Cross-check of generated/openapi/v2.json against the upstream 1.31 OpenAPI
// v2 document (reference data, not copied): every path we publish exists
// upstream with the same operation ids and x-kubernetes-action values, HEAD
// and OPTIONS of the proxy subresources included.
// Skips when the reference is absent.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiV2Path } from '../../generated/openapi/index.ts';
import { referenceDir } from './helpers.ts';

const swaggerPath = join(referenceDir, 'openapi', 'swagger-v1.31.json');
const present = existsSync(swaggerPath) && existsSync(openapiV2Path);
if (!present) console.warn(`skipping OpenAPI paths cross-check: ${swaggerPath} not found`);

type Paths = Record<string, Record<string, { operationId?: string; 'x-kubernetes-action'?: string }>>;
const ops = (item: Paths[string], skip: string[] = []) =>
  Object.fromEntries(
    Object.entries(item)
      .filter(([m]) => m !== 'parameters' && !skip.includes(m))
      .map(([m, o]) => [m, `${o.operationId} ${o['x-kubernetes-action'] ?? ''}`]),
  );

describe.skipIf(!present)('published paths agree with upstream', () => {
  const up: Paths = present ? JSON.parse(readFileSync(swaggerPath, 'utf8')).paths : {};
  const ours: Paths = present ? JSON.parse(readFileSync(openapiV2Path, 'utf8')).paths : {};

  it('every path exists upstream with the same operations', () => {
    const problems: string[] = [];
    for (const [p, item] of Object.entries(ours)) {
      if (!up[p]) {
        problems.push(`${p}: not an upstream path`);
        continue;
      }
      const a = ops(item);
      const b = ops(up[p]);
      if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${p}: ${JSON.stringify(a)} upstream ${JSON.stringify(b)}`);
    }
    expect(Object.keys(ours).length).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
