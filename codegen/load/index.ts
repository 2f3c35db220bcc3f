// The loader: reads api-specs/ (OpenAPI v3 group-version documents, CRD
// manifests, shared meta types), builds the shared namespace of named
// schemas (shared-types.ts: which definition of a name is used when several
// documents carry one; upstream-quirks.ts: upstream's quirks read as meant),
// checks markers and references, and settles every resource's registry
// facts (stability, enablement, preferred and storage versions; for
// built-in kinds of upstream documents, builtin-facts.ts). Returns the plain
// model of codegen/model; emitters never read files.
import type { GroupVersion, LoadedResource, Model, NamedSchema, OpenAPISchema } from '../model/types.ts';
import { CodegenError, jp } from './errors.ts';
import { normalizeMarkerSpelling } from './svc-markers.ts';
import { readSpecFiles } from './read-files.ts';
import { isObject, properties, refName } from './schema-util.ts';
import { packageOf, servedPackages, settleSchemas, type SchemaDef } from './shared-types.ts';
import { withoutUpstreamQuirks } from './upstream-quirks.ts';
import { checkNamedSchema } from './markers.ts';
import { readCompact, type DeclaredResource } from './compact.ts';
import { readUpstreamPaths, type Gvk } from './upstream-paths.ts';
import { readCrd } from './crd.ts';
import { builtinGroupVersionFacts, withBuiltinFacts } from './builtin-facts.ts';
import { checkConversions, readConversions, type DeclaredConversion } from './conversions.ts';
import { compareVersionPriority, defaultEnabled, stabilityOf } from './versions.ts';

interface PendingDoc {
  file: string;
  at: string;
  doc: Record<string, unknown>;
}

const GVK = 'x-kubernetes-group-version-kind';
/** A Kubernetes release as the life-cycle settings name it: `1.29`. */
const RELEASE = /^\d+\.\d+$/;
/** `group/version`, or a bare version for the core group. */
const GROUP_VERSION = /^(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v\d+(?:(?:alpha|beta)\d+)?$/;

export function gvksOf(schema: OpenAPISchema): Gvk[] {
  const v = schema[GVK];
  return Array.isArray(v) ? (v.filter(isObject) as unknown as Gvk[]) : [];
}

export function loadSpecs(specsDir: string): Model {
  const docs = readSpecFiles(specsDir);
  const gvDocs: PendingDoc[] = [];
  const crdResources: { gv: GroupVersion; res: DeclaredResource; storage: boolean; file: string; schema: string }[] = [];

  const defs = new Map<string, SchemaDef[]>();
  const addDef = (d: SchemaDef) => {
    const list = defs.get(d.name);
    if (list) list.push(d);
    else defs.set(d.name, [d]);
  };

  for (const { file, index, doc } of docs) {
    const at = index === 0 ? '$' : `$[${index}]`;
    if (!isObject(doc)) throw new CodegenError(file, at, 'expected an object (an OpenAPI document or a CustomResourceDefinition)');
    normalizeMarkerSpelling(file, at, doc);
    if (typeof doc.openapi === 'string') {
      const comps = isObject(doc.components) ? doc.components : {};
      const sch = isObject(comps.schemas) ? comps.schemas : {};
      const meta = file.startsWith('meta/');
      const served = servedPackages(sch);
      for (const name of Object.keys(sch).sort()) {
        const s = sch[name];
        const sAt = jp(jp(jp(at, 'components'), 'schemas'), name);
        if (!isObject(s)) throw new CodegenError(file, sAt, 'a schema must be an object');
        addDef({ name, schema: s, file, jsonPath: sAt, custom: false, meta, home: meta || served.has(packageOf(name)) });
      }
      if (!file.startsWith('meta/')) gvDocs.push({ file, at, doc });
      else if (doc.paths !== undefined && isObject(doc.paths) && Object.keys(doc.paths).length > 0) {
        throw new CodegenError(file, jp(at, 'paths'), 'meta documents hold only components.schemas');
      }
    } else if (doc.apiVersion === 'apiextensions.k8s.io/v1' && doc.kind === 'CustomResourceDefinition') {
      for (const v of readCrd(file, at, doc)) {
        for (const s of v.schemas) addDef({ ...s, meta: false, home: true });
        const stability = stabilityOf(v.version);
        crdResources.push({
          gv: { group: v.group, version: v.version, file, stability, enabledByDefault: true, custom: true },
          res: v.resource,
          storage: v.storage,
          file,
          schema: v.schemas[0].name,
        });
      }
    } else {
      throw new CodegenError(file, at, 'not an OpenAPI v3 document (no `openapi` key) nor an apiextensions.k8s.io/v1 CustomResourceDefinition');
    }
  }

  const { schemas, notes } = settleSchemas(defs);
  const lookup = (n: string) => schemas.get(n);
  for (const name of [...schemas.keys()].sort()) checkNamedSchema(schemas.get(name)!, lookup);
  for (const s of schemas.values()) if (!s.custom) s.schema = withoutUpstreamQuirks(s.schema, lookup);

  // One schema per GVK (schemas claiming several GVKs, like DeleteOptions, are shared meta types).
  const byGvk = new Map<string, NamedSchema>();
  for (const name of [...schemas.keys()].sort()) {
    const s = schemas.get(name)!;
    const gs = gvksOf(s.schema);
    if (gs.length !== 1) continue;
    const key = `${gs[0].group}/${gs[0].version}/${gs[0].kind}`;
    const prev = byGvk.get(key);
    if (prev) {
      throw new CodegenError(s.file, jp(s.jsonPath, GVK), `duplicate group-version-kind ${key}: also declared by ${JSON.stringify(prev.name)} in ${prev.file}`);
    }
    byGvk.set(key, s);
  }
  const gvkOf = (n: string) => {
    const s = schemas.get(n);
    return s ? gvksOf(s.schema) : [];
  };
  const itemsOf = (n: string) => {
    const s = schemas.get(n);
    if (!s) return undefined;
    const items = properties(s.schema).items;
    return isObject(items) && isObject(items.items) ? refName(items.items) : undefined;
  };

  const groupVersions: GroupVersion[] = [];
  const loaded: LoadedResource[] = [];
  const seenGv = new Map<string, string>();
  const conversions: { group: string; version: string; list: DeclaredConversion[] }[] = [];
  const addGv = (gv: GroupVersion, at: string) => {
    const key = `${gv.group}/${gv.version}`;
    const prev = seenGv.get(key);
    if (prev !== undefined) throw new CodegenError(gv.file, at, `group-version ${key} is also declared by ${prev}`);
    seenGv.set(key, gv.file);
    groupVersions.push(gv);
  };

  const finish = (gv: GroupVersion, d: DeclaredResource, schema: string, file: string, storageExplicit?: boolean) => {
    const r: LoadedResource = {
      group: gv.group,
      version: gv.version,
      kind: d.kind,
      listKind: d.listKind ?? `${d.kind}List`,
      resource: d.plural,
      singular: d.singular,
      namespaced: d.namespaced,
      verbs: d.verbs,
      shortNames: d.shortNames,
      categories: d.categories,
      subresources: d.subresources,
      printerColumns: d.printerColumns,
      selectableFields: d.selectableFields,
      allowCreateOnUpdate: d.allowCreateOnUpdate,
      storageVersion: false,
      preferredVersion: false,
      stability: gv.stability,
      enabledByDefault: gv.enabledByDefault,
      schema,
      custom: gv.custom,
      nameRule: d.nameRule,
      virtual: d.virtual,
      file,
      jsonPath: d.jsonPath,
    };
    const dep = {
      ...(gv.deprecatedIn ? { deprecatedIn: gv.deprecatedIn } : {}),
      ...(gv.removedIn ? { removedIn: gv.removedIn } : {}),
      ...(gv.replacement ? { replacement: { ...gv.replacement, kind: d.kind } } : {}),
      ...(d.deprecation ?? {}),
    };
    if (d.deprecation || gv.deprecatedIn || gv.removedIn) r.deprecation = dep;
    if (storageExplicit !== undefined) r.storageExplicit = storageExplicit;
    loaded.push(r);
  };

  for (const { file, at, doc } of gvDocs) {
    const settingsAt = jp(at, 'x-specserver-group-version');
    const settings = doc['x-specserver-group-version'];
    if (settings !== undefined && !isObject(settings)) throw new CodegenError(file, settingsAt, 'x-specserver-group-version must be an object');
    let st = (settings ?? {}) as Record<string, unknown>;
    let declared: (DeclaredResource & { gvk?: Gvk })[];
    let group = typeof st.group === 'string' ? st.group : undefined;
    let version = typeof st.version === 'string' ? st.version : undefined;
    if (doc['x-specserver-resources'] !== undefined) {
      declared = readCompact(file, doc['x-specserver-resources'], jp(at, 'x-specserver-resources'));
      if (group === undefined || version === undefined) {
        // Group and version from the declared kinds' GVKs among this document's own schemas.
        const own = isObject(doc.components) && isObject(doc.components.schemas) ? Object.keys(doc.components.schemas) : [];
        for (const d of declared) {
          const hit = own.map((n) => gvkOf(n)).find((gs) => gs.length === 1 && gs[0].kind === d.kind)?.[0];
          if (hit) {
            group ??= hit.group;
            version ??= hit.version;
            break;
          }
        }
      }
    } else {
      const up = readUpstreamPaths(file, doc.paths, gvkOf, itemsOf);
      group ??= up.group;
      version ??= up.version;
      const g = group;
      declared = up.resources.map((d) => (g === undefined ? d : withBuiltinFacts(g, d)));
    }
    if (group === undefined || version === undefined) {
      if (declared.length === 0) continue; // a document of shared schemas only
      throw new CodegenError(file, at, 'cannot tell the group-version: add x-specserver-group-version or kinds with x-kubernetes-group-version-kind');
    }
    if (settings === undefined) st = builtinGroupVersionFacts(group, version);
    const stability = stabilityOf(version);
    const introduced = typeof st.introduced === 'string' ? st.introduced : undefined;
    if (st.enabledByDefault !== undefined && typeof st.enabledByDefault !== 'boolean') throw new CodegenError(file, jp(settingsAt, 'enabledByDefault'), 'enabledByDefault must be a boolean');
    if (st.preferred !== undefined && typeof st.preferred !== 'boolean') throw new CodegenError(file, jp(settingsAt, 'preferred'), 'preferred must be a boolean');
    const gv: GroupVersion = {
      group,
      version,
      file,
      stability,
      custom: false,
      enabledByDefault: typeof st.enabledByDefault === 'boolean' ? st.enabledByDefault : defaultEnabled(stability, introduced),
    };
    if (typeof st.preferred === 'boolean') gv.preferred = st.preferred;
    if (introduced) gv.introduced = introduced;
    for (const key of ['introduced', 'deprecatedIn', 'removedIn'] as const) {
      if (st[key] !== undefined && (typeof st[key] !== 'string' || !RELEASE.test(st[key])))
        throw new CodegenError(file, jp(settingsAt, key), `${key} must be a release "<major>.<minor>", e.g. "1.29"`);
    }
    if (typeof st.deprecatedIn === 'string') gv.deprecatedIn = st.deprecatedIn;
    if (typeof st.removedIn === 'string') gv.removedIn = st.removedIn;
    if (st.replacement !== undefined) {
      if (typeof st.replacement !== 'string' || !GROUP_VERSION.test(st.replacement))
        throw new CodegenError(file, jp(settingsAt, 'replacement'), 'replacement must be a group-version ("group/version", or "v1" for the core group)');
      if (!gv.deprecatedIn) throw new CodegenError(file, jp(settingsAt, 'replacement'), 'replacement needs deprecatedIn');
      const slash = st.replacement.lastIndexOf('/');
      gv.replacement = { group: slash < 0 ? '' : st.replacement.slice(0, slash), version: st.replacement.slice(slash + 1) };
    }
    addGv(gv, at);
    if (doc['x-specserver-conversions'] !== undefined) {
      conversions.push({ group, version, list: readConversions(file, doc['x-specserver-conversions'], jp(at, 'x-specserver-conversions')) });
    }
    for (const d of declared) {
      const key = `${group}/${version}/${d.kind}`;
      const s = byGvk.get(key);
      if (!s) throw new CodegenError(file, d.jsonPath, `no schema declares x-kubernetes-group-version-kind ${key}`);
      finish(gv, d, s.name, file);
    }
  }
  for (const c of crdResources) {
    const key = `${c.gv.group}/${c.gv.version}`;
    if (!groupVersions.some((g) => `${g.group}/${g.version}` === key)) addGv(c.gv, '$');
    else if (seenGv.get(key) !== c.file && !groupVersions.find((g) => `${g.group}/${g.version}` === key)!.custom) {
      throw new CodegenError(c.file, c.res.jsonPath, `group-version ${key} is also served by built-in ${seenGv.get(key)}`);
    }
    finish(c.gv, c.res, c.schema, c.file, c.storage);
  }

  // Duplicate resources (same group, version and plural, or same kind twice in a group-version).
  const seenRes = new Map<string, LoadedResource>();
  for (const r of loaded) {
    for (const key of [`${r.group}/${r.version}/resource:${r.resource}`, `${r.group}/${r.version}/kind:${r.kind}`]) {
      const prev = seenRes.get(key);
      if (prev) throw new CodegenError(r.file, r.jsonPath, `duplicate ${key.split('/').pop()!.replace(':', ' ')} in ${r.group || 'core'}/${r.version}: also declared in ${prev.file}`);
      seenRes.set(key, r);
    }
  }

  settleVersions(groupVersions, loaded);
  checkConversions(conversions, loaded, schemas);
  loaded.sort((a, b) => cmp(a.group, b.group) || cmp(a.version, b.version) || cmp(a.resource, b.resource));
  groupVersions.sort((a, b) => cmp(a.group, b.group) || cmp(a.version, b.version));
  return { schemas, groupVersions, resources: loaded, notes };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Preferred version per group and storage version per resource. */
export function settleVersions(gvs: GroupVersion[], resources: LoadedResource[]): void {
  const groups = new Map<string, GroupVersion[]>();
  for (const gv of gvs) groups.set(gv.group, [...(groups.get(gv.group) ?? []), gv]);
  const preferred = new Map<string, string>();
  for (const [group, list] of groups) {
    const explicit = list.find((g) => g.preferred === true);
    const enabled = list.filter((g) => g.enabledByDefault && g.preferred !== false);
    const pool = enabled.length > 0 ? enabled : list;
    const best = explicit ?? [...pool].sort((a, b) => compareVersionPriority(a.version, b.version))[0];
    preferred.set(group, best.version);
  }
  const byResource = new Map<string, LoadedResource[]>();
  for (const r of resources) {
    r.preferredVersion = preferred.get(r.group) === r.version;
    const key = `${r.group}/${r.resource}`;
    byResource.set(key, [...(byResource.get(key) ?? []), r]);
  }
  for (const list of byResource.values()) {
    const explicit = list.filter((r) => r.storageExplicit === true);
    if (explicit.length > 0) {
      explicit[0].storageVersion = true;
      continue;
    }
    const pref = list.find((r) => r.preferredVersion);
    if (pref) {
      pref.storageVersion = true;
      continue;
    }
    const enabled = list.filter((r) => r.enabledByDefault);
    const pool = enabled.length > 0 ? enabled : list;
    [...pool].sort((a, b) => compareVersionPriority(a.version, b.version))[0].storageVersion = true;
  }
}
