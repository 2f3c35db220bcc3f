// The translation of a CustomResourceDefinition (apiextensions.k8s.io/v1)
// into what serving it takes, shared by codegen (a CRD manifest in
// api-specs/) and the runtime (a CRD created through the API): per served
// version, the resource record and two named schemas,
// `<reversed group>.<version>.<Kind>` and its List, with apiVersion, kind
// and metadata filled in as kube-apiserver publishes them. Problems of shape
// are reported through `fail` with the JSON path inside the CRD.
import type { ResourceDef, SubresourceDef, Verb } from '../../generated/api-types.ts';
import { readPrinterColumns, type Fail } from './printer-columns.ts';
import { isObject, jp, LIST_META, OBJECT_META, REF_PREFIX, type OpenAPISchema } from './util.ts';
import { compareVersionPriority, stabilityOf } from './versions.ts';

/** What a CRD version declares about its resource (ResourceDef without the group-wide facts and the schema name). */
export type CrdResource = Omit<ResourceDef, 'group' | 'version' | 'storageVersion' | 'preferredVersion' | 'stability' | 'enabledByDefault' | 'schema' | 'custom'>;

export interface CrdNamedSchema {
  name: string;
  schema: OpenAPISchema;
}

export interface CrdVersion {
  group: string;
  version: string;
  resource: CrdResource;
  storage: boolean;
  /** The kind's schema, then its List's. */
  schemas: [CrdNamedSchema, CrdNamedSchema];
  /** JSON path of the version in the CRD. */
  at: string;
}

const CRD_VERBS: Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const SUBRESOURCE_VERBS: Verb[] = ['get', 'update', 'patch'];

export function crdSchemaName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function need(o: Record<string, unknown>, key: string, at: string, fail: Fail): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') fail(jp(at, key), `${key} must be a non-empty string`);
  return v as string;
}

/** The served versions of a CRD (`docAt`: the JSON path of the CRD object itself). */
export function readCrd(crd: Record<string, unknown>, docAt: string, fail: Fail): CrdVersion[] {
  const spec = crd.spec;
  const specAt = jp(docAt, 'spec');
  if (!isObject(spec)) fail(specAt, 'a CustomResourceDefinition needs a spec');
  const s = spec as Record<string, unknown>;
  const group = need(s, 'group', specAt, fail);
  const namesAt = jp(specAt, 'names');
  if (!isObject(s.names)) fail(namesAt, 'spec.names is required');
  const names = s.names as Record<string, unknown>;
  const kind = need(names, 'kind', namesAt, fail);
  const plural = need(names, 'plural', namesAt, fail);
  const singular = typeof names.singular === 'string' && names.singular !== '' ? names.singular : kind.toLowerCase();
  const listKind = typeof names.listKind === 'string' && names.listKind !== '' ? names.listKind : `${kind}List`;
  const scope = s.scope ?? 'Namespaced';
  if (scope !== 'Namespaced' && scope !== 'Cluster') fail(jp(specAt, 'scope'), `unknown scope ${JSON.stringify(scope)} (want Namespaced or Cluster)`);
  const strList = (v: unknown, at: string): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) fail(at, 'must be a list of strings');
    return [...(v as string[])];
  };
  const shortNames = strList(names.shortNames, jp(namesAt, 'shortNames'));
  const categories = strList(names.categories, jp(namesAt, 'categories'));
  const versions = s.versions;
  if (!Array.isArray(versions) || versions.length === 0) fail(jp(specAt, 'versions'), 'spec.versions must be a non-empty list');
  const out: CrdVersion[] = [];
  (versions as unknown[]).forEach((v, i) => {
    const at = jp(jp(specAt, 'versions'), i);
    if (!isObject(v)) fail(at, 'a version must be an object');
    const ver = v as Record<string, unknown>;
    const version = need(ver, 'name', at, fail);
    if (ver.served === false) return;
    const schemaAt = jp(jp(at, 'schema'), 'openAPIV3Schema');
    const raw = isObject(ver.schema) ? ver.schema.openAPIV3Schema : undefined;
    if (!isObject(raw)) fail(schemaAt, 'every served version needs schema.openAPIV3Schema');
    const rawSchema = raw as OpenAPISchema;
    const name = crdSchemaName(group, version, kind);
    const props = isObject(rawSchema.properties) ? { ...rawSchema.properties } : {};
    props.apiVersion = { type: 'string', description: 'APIVersion of this representation of an object.' };
    props.kind = { type: 'string', description: 'Kind of the REST resource this object represents.' };
    props.metadata = { $ref: REF_PREFIX + OBJECT_META, description: 'Standard object metadata.' };
    const schema: OpenAPISchema = { ...rawSchema, type: 'object', properties: props, 'x-kubernetes-group-version-kind': [{ group, kind, version }] };
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
    const sr = isObject(ver.subresources) ? ver.subresources : {};
    if (isObject(sr.scale)) {
      const sc = sr.scale;
      for (const f of ['specReplicasPath', 'statusReplicasPath'] as const) {
        if (typeof sc[f] !== 'string' || !sc[f].startsWith('.')) fail(jp(jp(jp(at, 'subresources'), 'scale'), f), `${f} must be a JSON path starting with '.'`);
      }
      const scale: NonNullable<SubresourceDef['scale']> = { specReplicasPath: sc.specReplicasPath as string, statusReplicasPath: sc.statusReplicasPath as string };
      if (typeof sc.labelSelectorPath === 'string') scale.labelSelectorPath = sc.labelSelectorPath;
      subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: [...SUBRESOURCE_VERBS], scale });
    }
    if (isObject(sr.status)) subresources.push({ name: 'status', kind, verbs: [...SUBRESOURCE_VERBS] });
    const selectable = ver.selectableFields;
    const selectableFields: string[] = [];
    if (selectable !== undefined) {
      if (!Array.isArray(selectable)) fail(jp(at, 'selectableFields'), 'selectableFields must be a list');
      (selectable as unknown[]).forEach((f, j) => {
        if (!isObject(f) || typeof f.jsonPath !== 'string') fail(jp(jp(at, 'selectableFields'), j), 'a selectable field needs a jsonPath');
        selectableFields.push(((f as Record<string, unknown>).jsonPath as string).replace(/^\./, ''));
      });
    }
    const resource: CrdResource = {
      kind,
      listKind,
      resource: plural,
      singular,
      namespaced: scope === 'Namespaced',
      verbs: [...CRD_VERBS],
      shortNames,
      categories,
      subresources,
      printerColumns: readPrinterColumns(ver.additionalPrinterColumns, jp(at, 'additionalPrinterColumns'), fail),
      selectableFields,
      allowCreateOnUpdate: false,
      nameRule: 'subdomain',
      virtual: false,
    };
    if (ver.deprecated === true) {
      const warning = typeof ver.deprecationWarning === 'string' ? ver.deprecationWarning : defaultDeprecationWarning(group, kind, version, versions as unknown[]);
      resource.deprecation = { warning };
    }
    out.push({
      group,
      version,
      resource,
      storage: ver.storage === true,
      schemas: [
        { name, schema },
        { name: crdSchemaName(group, version, listKind), schema: listSchema },
      ],
      at,
    });
  });
  return out;
}

/**
 * A deprecated CRD version's warning when the CRD states none, as
 * apiextensions-apiserver words it: `<group>/<version> <Kind> is deprecated`,
 * and `; use <group>/<version> <Kind>` naming the served, undeprecated
 * version of highest priority among those above it, if any.
 */
export function defaultDeprecationWarning(group: string, kind: string, version: string, versions: unknown[]): string {
  const msg = `${group}/${version} ${kind} is deprecated`;
  const better = versions
    .filter(isObject)
    .filter((v) => v.served === true && v.deprecated !== true && typeof v.name === 'string' && compareVersionPriority(v.name, version) < 0)
    .map((v) => v.name as string)
    .sort(compareVersionPriority);
  return better.length ? `${msg}; use ${group}/${better[0]} ${kind}` : msg;
}

/**
 * The ResourceDefs a CRD's served versions are served with: the storage
 * version is the one marked `storage` (the first served one when none is),
 * the preferred version the served one of highest priority (kube-aware
 * version order), as kube-apiserver's discovery has them.
 */
export function crdResourceDefs(versions: CrdVersion[], schemaName: (v: CrdVersion) => string = (v) => v.schemas[0].name): ResourceDef[] {
  if (versions.length === 0) return [];
  const preferred = [...versions].sort((a, b) => compareVersionPriority(a.version, b.version))[0].version;
  const storage = versions.find((v) => v.storage)?.version ?? versions[0].version;
  return versions.map((v) => {
    const r = v.resource;
    return {
      group: v.group,
      version: v.version,
      kind: r.kind,
      listKind: r.listKind,
      resource: r.resource,
      singular: r.singular,
      namespaced: r.namespaced,
      verbs: r.verbs,
      shortNames: r.shortNames,
      categories: r.categories,
      subresources: r.subresources,
      printerColumns: r.printerColumns,
      selectableFields: r.selectableFields,
      allowCreateOnUpdate: r.allowCreateOnUpdate,
      storageVersion: v.version === storage,
      preferredVersion: v.version === preferred,
      stability: stabilityOf(v.version),
      enabledByDefault: true,
      ...(r.deprecation ? { deprecation: r.deprecation } : {}),
      schema: schemaName(v),
      custom: true,
      nameRule: r.nameRule,
      virtual: false,
    };
  });
}
