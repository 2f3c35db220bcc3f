// The REST operations of every resource, in the shape kube-apiserver
// publishes them (paths, operation ids, x-kubernetes-action and
// x-kubernetes-group-version-kind), as a neutral model that the v2 and v3
// documents render (openapi-docs.ts). Shared by codegen (the generated
// documents) and the runtime (the documents of CRDs served while running).
// Parameter descriptions are our own wording.
import type { ResourceDef, Verb } from '../../generated/api-types.ts';

/** The named schemas the documents can refer to: codegen's model, or the served ones at run time. */
export interface SchemaIndex {
  has(name: string): boolean;
  /** The schema name declaring exactly this group, version and kind. */
  forGvk(group: string, version: string, kind: string): string | undefined;
}

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export interface Param {
  name: string;
  in: 'path' | 'query';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required?: boolean;
}

export interface Operation {
  method: 'get' | 'put' | 'post' | 'patch' | 'delete' | 'head' | 'options';
  operationId: string;
  description: string;
  action: string;
  gvk: { group: string; version: string; kind: string };
  params: Param[];
  /** Schema name of the request body (patch: meta Patch), when any. */
  body?: string;
  /** Response schema name, or undefined for a plain string body. */
  response?: string;
  responseCodes: string[];
  consumes: string[];
  produces: string[];
  tag: string;
}

export interface PathItem {
  path: string;
  params: Param[];
  ops: Operation[];
}

const P = (name: string, type: Param['type'], description: string): Param => ({ name, in: 'query', type, description });
const PRETTY = P('pretty', 'string', "Pretty-print the output when 'true'.");
const DRY_RUN = P('dryRun', 'string', "Set to 'All' to run every stage of the request without persisting it.");
const FIELD_MANAGER = P('fieldManager', 'string', 'Name of the actor making the change, recorded in managedFields.');
const FIELD_VALIDATION = P('fieldValidation', 'string', 'How to treat unknown or duplicate fields in the request body: Ignore, Warn or Strict.');
const FORCE = P('force', 'boolean', 'For apply patches: take ownership of fields that other managers own.');
const LIST_PARAMS: Param[] = [
  P('allowWatchBookmarks', 'boolean', 'Ask for BOOKMARK watch events.'),
  P('continue', 'string', 'Continue token from a previous chunked list.'),
  P('fieldSelector', 'string', 'Restrict the result by field values.'),
  P('labelSelector', 'string', 'Restrict the result by labels.'),
  P('limit', 'integer', 'Maximum number of items to return in one chunk.'),
  P('resourceVersion', 'string', 'Resource version the result must be at least as new as (semantics depend on resourceVersionMatch).'),
  P('resourceVersionMatch', 'string', 'How resourceVersion applies: Exact or NotOlderThan.'),
  P('sendInitialEvents', 'boolean', 'For watches: start with synthetic ADDED events for the current state.'),
  P('timeoutSeconds', 'integer', 'Server-side timeout of the call, in seconds.'),
  P('watch', 'boolean', 'Watch for changes instead of listing.'),
];
const DELETE_PARAMS: Param[] = [
  DRY_RUN,
  P('gracePeriodSeconds', 'integer', 'Seconds to wait before the object is deleted; 0 deletes at once.'),
  P('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy.'),
  P('propagationPolicy', 'string', 'Garbage collection policy: Orphan, Background or Foreground.'),
];

const JSON_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const WATCH_TYPES = [...JSON_TYPES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

function camel(s: string): string {
  return s
    .split(/[.-]/)
    .filter((x) => x !== '')
    .map((x) => x[0].toUpperCase() + x.slice(1))
    .join('');
}

/** `CoreV1`, `AppsV1`, `RbacAuthorizationV1`, `NodeV1`: the group-version part of operation ids. */
export function opGroupVersion(group: string, version: string): string {
  const g = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return camel(g) + camel(version);
}

export function tagOf(group: string, version: string): string {
  const g = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return `${g.replace(/[.-]/g, '_')}_${version}`;
}

export function groupVersionPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** Path items of one resource (collection, item, watch, subresources). */
export function resourcePaths(index: SchemaIndex, r: ResourceDef): PathItem[] {
  const has = (n: string) => index.has(n);
  const meta = (n: string) => (has(META + n) ? META + n : undefined);
  const listSchema = index.forGvk(r.group, r.version, r.listKind);
  const gv = opGroupVersion(r.group, r.version);
  const tag = tagOf(r.group, r.version);
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  const prefix = groupVersionPrefix(r.group, r.version);
  const ns = r.namespaced ? 'Namespaced' : '';
  const base = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.resource}` : `${prefix}/${r.resource}`;
  const nsParam: Param = { name: 'namespace', in: 'path', type: 'string', description: 'Namespace of the objects.', required: true };
  const nameParam: Param = { name: 'name', in: 'path', type: 'string', description: `Name of the ${r.kind}.`, required: true };
  const verbs = new Set<Verb>(r.verbs);
  const items: PathItem[] = [];
  const op = (o: Omit<Operation, 'tag' | 'gvk' | 'consumes' | 'produces'> & Partial<Pick<Operation, 'gvk' | 'consumes' | 'produces'>>): Operation => ({
    consumes: ['*/*'],
    produces: JSON_TYPES,
    gvk,
    tag,
    ...o,
  });

  const collection: Operation[] = [];
  if (verbs.has('list'))
    collection.push(
      op({
        method: 'get',
        operationId: `list${gv}${ns}${r.kind}`,
        description: `list or watch objects of kind ${r.kind}`,
        action: 'list',
        params: LIST_PARAMS,
        response: listSchema,
        responseCodes: ['200'],
        produces: WATCH_TYPES,
      }),
    );
  if (verbs.has('create'))
    collection.push(
      op({
        method: 'post',
        operationId: `create${gv}${ns}${r.kind}`,
        description: `create a ${r.kind}`,
        action: 'post',
        params: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
        body: r.schema,
        response: r.schema,
        responseCodes: ['200', '201', '202'],
      }),
    );
  if (verbs.has('deletecollection'))
    collection.push(
      op({
        method: 'delete',
        operationId: `delete${gv}Collection${ns}${r.kind}`,
        description: `delete collection of ${r.kind}`,
        action: 'deletecollection',
        params: [...DELETE_PARAMS, ...LIST_PARAMS.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks')],
        body: meta('DeleteOptions'),
        response: meta('Status'),
        responseCodes: ['200'],
      }),
    );
  if (collection.length > 0) items.push({ path: base, params: r.namespaced ? [nsParam, PRETTY] : [PRETTY], ops: collection });

  const item: Operation[] = [];
  if (verbs.has('get'))
    item.push(op({ method: 'get', operationId: `read${gv}${ns}${r.kind}`, description: `read the specified ${r.kind}`, action: 'get', params: [], response: r.schema, responseCodes: ['200'] }));
  if (verbs.has('update'))
    item.push(
      op({
        method: 'put',
        operationId: `replace${gv}${ns}${r.kind}`,
        description: `replace the specified ${r.kind}`,
        action: 'put',
        params: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
        body: r.schema,
        response: r.schema,
        responseCodes: ['200', '201'],
      }),
    );
  const patchTypes = r.custom ? PATCH_TYPES.filter((t) => !t.includes('strategic')) : PATCH_TYPES;
  if (verbs.has('patch'))
    item.push(
      op({
        method: 'patch',
        operationId: `patch${gv}${ns}${r.kind}`,
        description: `partially update the specified ${r.kind}`,
        action: 'patch',
        params: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, FORCE],
        body: meta('Patch'),
        response: r.schema,
        responseCodes: ['200', '201'],
        consumes: patchTypes,
      }),
    );
  if (verbs.has('delete'))
    item.push(
      op({
        method: 'delete',
        operationId: `delete${gv}${ns}${r.kind}`,
        description: `delete a ${r.kind}`,
        action: 'delete',
        params: DELETE_PARAMS,
        body: meta('DeleteOptions'),
        response: meta('Status'),
        responseCodes: ['200', '202'],
      }),
    );
  if (item.length > 0) items.push({ path: `${base}/{name}`, params: r.namespaced ? [nameParam, nsParam, PRETTY] : [nameParam, PRETTY], ops: item });

  for (const s of r.subresources) {
    const sgvk = { group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind };
    const sname = camel(s.name);
    const params = r.namespaced ? [nameParam, nsParam] : [nameParam];
    const sv = new Set(s.verbs);
    if (s.kind.endsWith('Options')) {
      // Connect subresources (exec, attach, portforward, proxy): options kinds, plain-text bodies.
      const methods: [Verb, Operation['method']][] = [
        ['get', 'get'],
        ['create', 'post'],
        ['update', 'put'],
        ['patch', 'patch'],
        ['delete', 'delete'],
      ];
      // proxy also forwards HEAD and OPTIONS (upstream's proxyMethods), which have no verb of their own
      const proxyOnly: Operation['method'][] = s.name === 'proxy' ? ['head', 'options'] : [];
      const ops = (suffix: string) =>
        [...methods.filter(([v]) => sv.has(v)).map(([, m]) => m), ...proxyOnly].map((m) =>
          op({
            method: m,
            operationId: `connect${gv}${camel(m)}${ns}${r.kind}${sname}${suffix}`,
            description: `connect ${m.toUpperCase()} requests to ${s.name} of ${r.kind}`,
            action: 'connect',
            gvk: sgvk,
            params: [],
            response: undefined,
            responseCodes: ['200'],
            produces: ['*/*'],
          }),
        );
      items.push({ path: `${base}/{name}/${s.name}`, params, ops: ops('') });
      if (s.name === 'proxy') {
        const pathParam: Param = { name: 'path', in: 'path', type: 'string', description: 'Path to forward to.', required: true };
        items.push({ path: `${base}/{name}/${s.name}/{path}`, params: [...params, pathParam], ops: ops('WithPath') });
      }
      continue;
    }
    const sschema = s.name === 'log' ? undefined : index.forGvk(sgvk.group, sgvk.version, sgvk.kind);
    const produces = s.name === 'log' ? ['text/plain', 'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] : JSON_TYPES;
    const sub: Operation[] = [];
    if (sv.has('get'))
      sub.push(
        op({
          method: 'get',
          operationId: `read${gv}${ns}${r.kind}${sname}`,
          description: `read ${s.name} of the specified ${r.kind}`,
          action: 'get',
          gvk: sgvk,
          params: [],
          response: sschema,
          responseCodes: ['200'],
          produces,
        }),
      );
    if (sv.has('create'))
      sub.push(
        op({
          method: 'post',
          operationId: `create${gv}${ns}${r.kind}${sname}`,
          description: `create ${s.name} of a ${r.kind}`,
          action: 'post',
          gvk: sgvk,
          params: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
          body: sschema,
          response: sschema,
          responseCodes: ['200', '201', '202'],
        }),
      );
    if (sv.has('update'))
      sub.push(
        op({
          method: 'put',
          operationId: `replace${gv}${ns}${r.kind}${sname}`,
          description: `replace ${s.name} of the specified ${r.kind}`,
          action: 'put',
          gvk: sgvk,
          params: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
          body: sschema,
          response: sschema,
          responseCodes: ['200', '201'],
        }),
      );
    if (sv.has('patch'))
      sub.push(
        op({
          method: 'patch',
          operationId: `patch${gv}${ns}${r.kind}${sname}`,
          description: `partially update ${s.name} of the specified ${r.kind}`,
          action: 'patch',
          gvk: sgvk,
          params: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, FORCE],
          body: meta('Patch'),
          response: sschema,
          responseCodes: ['200', '201'],
          consumes: patchTypes,
        }),
      );
    if (sv.has('delete'))
      sub.push(
        op({
          method: 'delete',
          operationId: `delete${gv}${ns}${r.kind}${sname}`,
          description: `delete ${s.name} of a ${r.kind}`,
          action: 'delete',
          gvk: sgvk,
          params: DELETE_PARAMS,
          body: meta('DeleteOptions'),
          response: meta('Status'),
          responseCodes: ['200', '202'],
        }),
      );
    if (sub.length > 0) items.push({ path: `${base}/{name}/${s.name}`, params: [...params, PRETTY], ops: sub });
  }

  if (verbs.has('watch')) {
    const watchEvent = meta('WatchEvent');
    const wbase = r.namespaced ? `${prefix}/watch/namespaces/{namespace}/${r.resource}` : `${prefix}/watch/${r.resource}`;
    const wparams = [...LIST_PARAMS, PRETTY];
    items.push({
      path: wbase,
      params: r.namespaced ? [nsParam, ...wparams] : wparams,
      ops: [
        op({
          method: 'get',
          operationId: `watch${gv}${ns}${r.kind}List`,
          description: `watch individual changes to a list of ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
          action: 'watchlist',
          params: [],
          response: watchEvent,
          responseCodes: ['200'],
          produces: WATCH_TYPES,
        }),
      ],
    });
    items.push({
      path: `${wbase}/{name}`,
      params: r.namespaced ? [nameParam, nsParam, ...wparams] : [nameParam, ...wparams],
      ops: [
        op({
          method: 'get',
          operationId: `watch${gv}${ns}${r.kind}`,
          description: `watch changes to an object of kind ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
          action: 'watch',
          params: [],
          response: watchEvent,
          responseCodes: ['200'],
          produces: WATCH_TYPES,
        }),
      ],
    });
    if (r.namespaced) {
      items.push({
        path: `${prefix}/watch/${r.resource}`,
        params: wparams,
        ops: [
          op({
            method: 'get',
            operationId: `watch${gv}${r.kind}ListForAllNamespaces`,
            description: `watch individual changes to a list of ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
            action: 'watchlist',
            params: [],
            response: watchEvent,
            responseCodes: ['200'],
            produces: WATCH_TYPES,
          }),
        ],
      });
    }
  }
  if (r.namespaced && verbs.has('list')) {
    items.push({
      path: `${prefix}/${r.resource}`,
      params: [...LIST_PARAMS, PRETTY],
      ops: [
        op({
          method: 'get',
          operationId: `list${gv}${r.kind}ForAllNamespaces`,
          description: `list or watch objects of kind ${r.kind}`,
          action: 'list',
          params: [],
          response: listSchema,
          responseCodes: ['200'],
          produces: WATCH_TYPES,
        }),
      ],
    });
  }
  return items;
}

/** Every path item of a group-version: its discovery path, then each resource's paths, sorted by path. */
export function groupVersionPaths(index: SchemaIndex, group: string, version: string, resources: ResourceDef[]): PathItem[] {
  const prefix = groupVersionPrefix(group, version);
  const items: PathItem[] = [];
  const arl = index.has(META + 'APIResourceList') ? META + 'APIResourceList' : undefined;
  items.push({
    path: `${prefix}/`,
    params: [],
    ops: [
      {
        method: 'get',
        operationId: `get${opGroupVersion(group, version)}APIResources`,
        description: 'get available resources',
        action: '',
        gvk: { group: '', version: '', kind: '' },
        params: [],
        response: arl,
        responseCodes: ['200'],
        consumes: JSON_TYPES,
        produces: JSON_TYPES,
        tag: tagOf(group, version),
      },
    ],
  });
  for (const r of resources) items.push(...resourcePaths(index, r));
  const seen = new Map<string, PathItem>();
  for (const it of items) {
    const prev = seen.get(it.path);
    if (prev) prev.ops.push(...it.ops.filter((o) => !prev.ops.some((p) => p.method === o.method)));
    else seen.set(it.path, it);
  }
  return [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
