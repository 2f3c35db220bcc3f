// Emits generated/types/<group>_<version>.ts: TypeScript types of each
// group-version's schemas (and everything they reference) with
// openapi-typescript, plus a short alias per kind. Descriptions are left
// out (the OpenAPI documents carry them) to keep the files small.
import openapiTS, { astToString } from 'openapi-typescript';
import type { Model } from '../model/types.ts';
import { isObject, sortKeysDeep } from '../load/schema-util.ts';
import { GENERATED_HEADER } from './printer.ts';
import { closure, rootsOfResources } from './reach.ts';

function stripDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDescriptions);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'description' || k === 'x-kubernetes-validations') continue;
    out[k] = k === 'properties' && isObject(x) ? Object.fromEntries(Object.entries(x).map(([pk, pv]) => [pk, stripDescriptions(pv)])) : stripDescriptions(x);
  }
  return out;
}

export function typesFileName(group: string, version: string): string {
  return `${group === '' ? 'core' : group}_${version}.ts`;
}

export async function emitTypes(model: Model): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const g of model.groupVersions) {
    const resources = model.resources.filter((r) => r.group === g.group && r.version === g.version);
    if (resources.length === 0) continue;
    const names = closure(model, rootsOfResources(model, resources));
    const schemas: Record<string, unknown> = {};
    for (const n of names) schemas[n] = stripDescriptions(model.schemas.get(n)!.schema);
    const doc = sortKeysDeep({ openapi: '3.0.0', info: { title: 'types', version: g.version }, paths: {}, components: { schemas } });
    const ast = await openapiTS(doc as never, { silent: true, alphabetize: true });
    const lines = [
      GENERATED_HEADER,
      `// TypeScript types of ${g.group === '' ? 'core' : g.group}/${g.version} (openapi-typescript).`,
      '',
      astToString(ast).trimEnd(),
      '',
      '// One alias per kind.',
    ];
    for (const r of [...resources].sort((a, b) => (a.kind < b.kind ? -1 : 1))) {
      lines.push(`export type ${r.kind} = components['schemas'][${JSON.stringify(r.schema)}];`);
    }
    out.set(typesFileName(g.group, g.version), lines.join('\n') + '\n');
  }
  return out;
}
