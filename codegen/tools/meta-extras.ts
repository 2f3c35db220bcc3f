// Shared apimachinery types that kube-apiserver serves but does not publish in
// its OpenAPI document (server-side tables and partial-object metadata),
// written here by hand from their Go field facts in the reference swagger's
// v2 shape, so the import tool can treat them like every other definition.
// Read only by import-facts.ts.

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const gvk = (kind: string) => [{ group: 'meta.k8s.io', kind, version: 'v1' }];
const str = { type: 'string' };

export const metaExtras = {
  /** A Go duration as text (`1h30m`); no built-in kind we serve refers to it, CRDs and clients may. */
  [`${META}.Duration`]: { type: 'string' },
  [`${META}.Table`]: {
    type: 'object',
    required: ['columnDefinitions', 'rows'],
    properties: {
      apiVersion: str,
      kind: str,
      metadata: ref(`${META}.ListMeta`),
      columnDefinitions: { type: 'array', items: ref(`${META}.TableColumnDefinition`), 'x-kubernetes-list-type': 'atomic' },
      rows: { type: 'array', items: ref(`${META}.TableRow`), 'x-kubernetes-list-type': 'atomic' },
    },
    'x-kubernetes-group-version-kind': gvk('Table'),
  },
  [`${META}.TableColumnDefinition`]: {
    type: 'object',
    required: ['name', 'type', 'format', 'description', 'priority'],
    properties: {
      name: str,
      type: str,
      format: str,
      description: str,
      priority: { type: 'integer', format: 'int32' },
    },
  },
  [`${META}.TableRow`]: {
    type: 'object',
    required: ['cells'],
    properties: {
      cells: { type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true }, 'x-kubernetes-list-type': 'atomic' },
      conditions: { type: 'array', items: ref(`${META}.TableRowCondition`), 'x-kubernetes-list-type': 'atomic' },
      object: ref('io.k8s.apimachinery.pkg.runtime.RawExtension'),
    },
  },
  [`${META}.TableRowCondition`]: {
    type: 'object',
    required: ['type', 'status'],
    properties: { type: str, status: str, reason: str, message: str },
  },
  [`${META}.PartialObjectMetadata`]: {
    type: 'object',
    properties: { apiVersion: str, kind: str, metadata: ref(`${META}.ObjectMeta`) },
    'x-kubernetes-group-version-kind': gvk('PartialObjectMetadata'),
  },
  [`${META}.PartialObjectMetadataList`]: {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: str,
      kind: str,
      metadata: ref(`${META}.ListMeta`),
      items: { type: 'array', items: ref(`${META}.PartialObjectMetadata`), 'x-kubernetes-list-type': 'atomic' },
    },
    'x-kubernetes-group-version-kind': gvk('PartialObjectMetadataList'),
  },
};
