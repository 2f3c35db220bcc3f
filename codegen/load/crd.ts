// Reads a CustomResourceDefinition manifest of api-specs/ through the
// translation shared with the runtime (runtime/schema/crd.ts): each served
// version's resource record and named schemas, problems reported as
// CodegenErrors naming the file and JSON path.
import type { NamedSchema } from '../model/types.ts';
import { readCrd as translateCrd } from '../../runtime/schema/crd.ts';
import { CodegenError, jp } from './errors.ts';
import type { DeclaredResource } from './compact.ts';

export interface CrdVersion {
  group: string;
  version: string;
  resource: DeclaredResource;
  storage: boolean;
  schemas: NamedSchema[];
}

export function readCrd(file: string, docAt: string, crd: Record<string, unknown>): CrdVersion[] {
  const fail = (at: string, msg: string): never => {
    throw new CodegenError(file, at, msg);
  };
  return translateCrd(crd, docAt, fail).map((v) => {
    const schemaAt = jp(jp(v.at, 'schema'), 'openAPIV3Schema');
    const { resource: plural, ...rest } = v.resource;
    return {
      group: v.group,
      version: v.version,
      resource: { ...rest, plural, jsonPath: v.at },
      storage: v.storage,
      schemas: v.schemas.map((s) => ({ name: s.name, schema: s.schema, file, jsonPath: schemaAt, custom: true })),
    };
  });
}
