// The OpenAPI component schemas the protobuf model is built from: those of
// the main loader (codegen/load), so that both agree on which definition of
// a shared name is used (the home one, whatever the file order) and on
// upstream's quirks. Schemas of CRD manifests are left out: custom resources
// have no protobuf form.
import { loadSpecs } from '../load/index.ts';
import type { Schema } from './model.ts';

export function loadSchemas(specsDir: string): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const [name, s] of loadSpecs(specsDir).schemas) if (!s.custom) schemas[name] = s.schema as Schema;
  return schemas;
}
