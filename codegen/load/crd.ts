// Turns a CustomResourceDefinition manifest (apiextensions.k8s.io/v1) into
// named schemas and resource records: each served version's openAPIV3Schema
// becomes `<reversed group>.<version>.<Kind>` (plus its List), with
// apiVersion, kind and metadata filled in as kube-apiserver publishes them.
import type { NamedSchema, OpenAPISchema } from '../model/types.ts';
import type { SubresourceDef } from '../templates/api-types.ts';
import { CodegenError, jp } from './errors.ts';
import { isObject, LIST_META, OBJECT_META, REF_PREFIX } from './schema-util.ts';
import { readPrinterColumns, VERBS, type DeclaredResource } from './compact.ts';

export interface CrdVersion {
  group: string;
  version: string;
  resource: DeclaredResource;
  storage: boolean;
  schemas: NamedSchema[];
}

export function crdSchemaName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function need(file: string, o: Record<string, unknown>, key: string, at: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw new CodegenError(file, jp(at, key), `${key} must be a non-empty string`);
  return v;
}

export function readCrd(file: string, docAt: string, crd: Record<string, unknown>): CrdVersion[] {
  const spec = crd.spec;
  const specAt = jp(docAt, 'spec');
  if (!isObject(spec)) throw new CodegenError(file, specAt, 'a CustomResourceDefinition needs a spec');
  const group = need(file, spec, 'group', specAt);
  const names = spec.names;
  const namesAt = jp(specAt, 'names');
  if (!isObject(names)) throw new CodegenError(file, namesAt, 'spec.names is required');
  const kind = need(file, names, 'kind', namesAt);
  const plural = need(file, names, 'plural', namesAt);
  const singular = typeof names.singular === 'string' ? names.singular : kind.toLowerCase();
  const listKind = typeof names.listKind === 'string' ? names.listKind : `${kind}List`;
  const scope = spec.scope ?? 'Namespaced';
  if (scope !== 'Namespaced' && scope !== 'Cluster') throw new CodegenError(file, jp(specAt, 'scope'), `unknown scope ${JSON.stringify(scope)} (want Namespaced or Cluster)`);
  const strList = (v: unknown, at: string): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new CodegenError(file, at, 'must be a list of strings');
    return [...v];
  };
  const shortNames = strList(names.shortNames, jp(namesAt, 'shortNames'));
  const categories = strList(names.categories, jp(namesAt, 'categories'));
  const versions = spec.versions;
  if (!Array.isArray(versions) || versions.length === 0) throw new CodegenError(file, jp(specAt, 'versions'), 'spec.versions must be a non-empty list');
  const out: CrdVersion[] = [];
  versions.forEach((v, i) => {
    const at = jp(jp(specAt, 'versions'), i);
    if (!isObject(v)) throw new CodegenError(file, at, 'a version must be an object');
    const version = need(file, v, 'name', at);
    if (v.served === false) return;
    const schemaAt = jp(jp(at, 'schema'), 'openAPIV3Schema');
    const raw = isObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
    if (!isObject(raw)) throw new CodegenError(file, schemaAt, 'every served version needs schema.openAPIV3Schema');
    const name = crdSchemaName(group, version, kind);
    const props = isObject(raw.properties) ? { ...raw.properties } : {};
    props.apiVersion = { type: 'string', description: 'APIVersion of this representation of an object.' };
    props.kind = { type: 'string', description: 'Kind of the REST resource this object represents.' };
    props.metadata = { $ref: REF_PREFIX + OBJECT_META, description: 'Standard object metadata.' };
    const schema: OpenAPISchema = { ...raw, type: 'object', properties: props, 'x-kubernetes-group-version-kind': [{ group, kind, version }] };
    const listSchema: OpenAPISchema = {
      description: `${listKind} is a list of ${kind}.`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string', description: 'APIVersion of this representation of an object.' },
        items: { type: 'array', description: `List of ${plural}.`, items: { $ref: REF_PREFIX + name } },
        kind: { type: 'string', description: 'Kind of the REST resource this object represents.' },
        metadata: { $ref: REF_PREFIX + LIST_META, description: 'Standard list metadata.' },
      },
      'x-kubernetes-group-version-kind': [{ group, kind: listKind, version }],
    };
    const subresources: SubresourceDef[] = [];
    const sr = isObject(v.subresources) ? v.subresources : {};
    if (isObject(sr.scale)) {
      const sc = sr.scale;
      for (const f of ['specReplicasPath', 'statusReplicasPath'] as const) {
        if (typeof sc[f] !== 'string' || !sc[f].startsWith('.')) throw new CodegenError(file, jp(jp(jp(at, 'subresources'), 'scale'), f), `${f} must be a JSON path starting with '.'`);
      }
      const scale: NonNullable<SubresourceDef['scale']> = { specReplicasPath: sc.specReplicasPath as string, statusReplicasPath: sc.statusReplicasPath as string };
      if (typeof sc.labelSelectorPath === 'string') scale.labelSelectorPath = sc.labelSelectorPath;
      subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'update', 'patch'], scale });
    }
    if (isObject(sr.status)) subresources.push({ name: 'status', kind, verbs: ['get', 'update', 'patch'] });
    const selectable = v.selectableFields;
    const selectableFields: string[] = [];
    if (selectable !== undefined) {
      if (!Array.isArray(selectable)) throw new CodegenError(file, jp(at, 'selectableFields'), 'selectableFields must be a list');
      selectable.forEach((s, j) => {
        if (!isObject(s) || typeof s.jsonPath !== 'string') throw new CodegenError(file, jp(jp(at, 'selectableFields'), j), 'a selectable field needs a jsonPath');
        selectableFields.push(s.jsonPath.replace(/^\./, ''));
      });
    }
    const resource: DeclaredResource = {
      kind,
      listKind,
      plural,
      singular,
      namespaced: scope === 'Namespaced',
      verbs: [...VERBS].sort((a, b) => VERBS.indexOf(a) - VERBS.indexOf(b)),
      shortNames,
      categories,
      subresources: subresources.map((s) => ({ ...s, verbs: VERBS.filter((x) => s.verbs.includes(x)) })),
      printerColumns: readPrinterColumns(file, v.additionalPrinterColumns, jp(at, 'additionalPrinterColumns')),
      selectableFields,
      allowCreateOnUpdate: false,
      nameRule: 'subdomain',
      virtual: false,
      jsonPath: at,
    };
    if (v.deprecated === true) resource.deprecation = {};
    out.push({
      group,
      version,
      resource,
      storage: v.storage === true,
      schemas: [
        { name, schema, file, jsonPath: schemaAt, custom: true },
        { name: crdSchemaName(group, version, listKind), schema: listSchema, file, jsonPath: schemaAt, custom: true },
      ],
    });
  });
  return out;
}
