// ValidateCustomResourceDefinition of apiextensions-apiserver for v1
// objects, with upstream's texts: the name `<plural>.<group>`, group,
// scope, names (plural, singular, kind, listKind, shortNames,
// categories), versions (DNS-1035 names, unique, exactly one storage
// version), schemas (required; validated by schema.ts, once at
// spec.validation when every version has the same one, as upstream's
// conversion to the internal form hoists it), subresources (scale paths),
// additionalPrinterColumns, selectableFields, conversion (strategy,
// webhook client config, review versions), preserveUnknownFields, status
// names and storedVersions; on update the immutable group, plural and
// (once established) scope and kind.
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { GoValue, goQuote } from '../../../api/go-format.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { validateDNS1035Label, validateDNS1123Subdomain } from '../../../api/validation.ts';
import type { Obj } from '../../../storage/interface.ts';
import { immutable } from '../common/immutable.ts';
import { webhookService, webhookURL } from '../common/webhook-client-config.ts';
import { validateCRDSchema } from './schema.ts';
import { validateSelectableFields } from './selectable-fields.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** What upstream prints for spec.versions in an Invalid error (a Go literal; here the fields that identify the versions). */
function goVersions(versions: unknown[]): GoValue {
  const items = versions.map((v) => {
    const o = isObj(v) ? v : {};
    return `apiextensions.CustomResourceDefinitionVersion{Name:${goQuote(str(o.name))}, Served:${o.served === true}, Storage:${o.storage === true}, ...}`;
  });
  return new GoValue(`[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`);
}

function names(n: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const dns = (v: string) => validateDNS1035Label(v).join(',');
  for (const f of ['plural', 'singular']) {
    const v = str(n[f]);
    if (v && dns(v)) errs.push(fieldErrors.invalid(`${path}.${f}`, v, dns(v)));
  }
  for (const f of ['kind', 'listKind']) {
    const v = str(n[f]);
    if (v && dns(v.toLowerCase())) errs.push(fieldErrors.invalid(`${path}.${f}`, v, `may have mixed case, but should otherwise match: ${dns(v.toLowerCase())}`));
  }
  arr(n.shortNames).forEach((s, i) => {
    const e = dns(str(s));
    if (e) errs.push(fieldErrors.invalid(`${path}.shortNames[${i}]`, s, e));
  });
  if (str(n.kind) && n.kind === n.listKind) errs.push(fieldErrors.invalid(`${path}.listKind`, n.listKind, 'kind and listKind may not be the same'));
  arr(n.categories).forEach((c, i) => {
    const e = dns(str(c));
    if (e) errs.push(fieldErrors.invalid(`${path}.categories[${i}]`, c, e));
  });
  return errs;
}

function simpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [fieldErrors.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldErrors.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

function subresources(sub: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObj(sub) || !isObj(sub.scale)) return errs;
  const scale = sub.scale;
  const check = (field: string, prefixes: string[], message: string, required: boolean) => {
    const v = str(scale[field]);
    const p = `${path}.scale.${field}`;
    if (v.length === 0) {
      if (required) errs.push(fieldErrors.required(p, ''));
      return;
    }
    const e = simpleJSONPath(v, p);
    if (e.length) errs.push(...e);
    else if (!prefixes.some((x) => v.startsWith(x))) errs.push(fieldErrors.invalid(p, v, message));
  };
  check('specReplicasPath', ['.spec.'], 'should be a json path under .spec', true);
  check('statusReplicasPath', ['.status.'], 'should be a json path under .status', true);
  check('labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status', false);
  return errs;
}

function column(col: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const c = isObj(col) ? col : {};
  if (!str(c.name)) errs.push(fieldErrors.required(`${path}.name`, ''));
  const type = str(c.type);
  if (!type) errs.push(fieldErrors.required(`${path}.type`, `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`));
  else if (!PRINTER_COLUMN_TYPES.includes(type)) errs.push(fieldErrors.invalid(`${path}.type`, type, `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`));
  const format = str(c.format);
  if (format && !PRINTER_COLUMN_FORMATS.includes(format)) errs.push(fieldErrors.invalid(`${path}.format`, format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  const jp = str(c.jsonPath);
  if (!jp) errs.push(fieldErrors.required(`${path}.JSONPath`, ''));
  else errs.push(...simpleJSONPath(jp, `${path}.JSONPath`));
  return errs;
}

function conversion(conv: unknown, preserveUnknown: boolean, path: string): FieldError[] {
  if (!isObj(conv)) return [];
  const errs: FieldError[] = [];
  const strategy = str(conv.strategy);
  if (strategy !== 'None' && preserveUnknown) errs.push(fieldErrors.invalid(`${path}.strategy`, strategy, 'must be None if spec.preserveUnknownFields is true'));
  if (!strategy) errs.push(fieldErrors.required(`${path}.strategy`, ''));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(fieldErrors.notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const webhook = isObj(conv.webhook) ? conv.webhook : undefined;
  if (strategy === 'Webhook') {
    const cc = webhook && isObj(webhook.clientConfig) ? webhook.clientConfig : undefined;
    const ccPath = `${path}.webhookClientConfig`;
    if (!cc) errs.push(fieldErrors.required(ccPath, 'required when strategy is set to Webhook'));
    else if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldErrors.required(ccPath, 'exactly one of url or service is required'));
    else if (typeof cc.url === 'string') errs.push(...webhookURL(cc.url, `${ccPath}.url`));
    else if (isObj(cc.service)) errs.push(...webhookService(cc.service, `${ccPath}.service`));
    const versions = webhook ? arr(webhook.conversionReviewVersions) : [];
    const vPath = `${path}.conversionReviewVersions`;
    if (versions.length === 0) errs.push(fieldErrors.required(vPath, ''));
    else {
      const seen = new Set<string>();
      let accepted = false;
      versions.forEach((v, i) => {
        const s = str(v);
        if (seen.has(s)) {
          errs.push(fieldErrors.invalid(`${vPath}[${i}]`, s, 'duplicate version'));
          return;
        }
        seen.add(s);
        for (const m of validateDNS1035Label(s)) errs.push(fieldErrors.invalid(`${vPath}[${i}]`, s, m));
        if (CONVERSION_REVIEW_VERSIONS.includes(s)) accepted = true;
      });
      if (!accepted) errs.push(fieldErrors.invalid(vPath, versions, `must include at least one of ${CONVERSION_REVIEW_VERSIONS.join(', ')}`));
    }
  } else if (webhook) {
    if (webhook.clientConfig !== undefined) errs.push(fieldErrors.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (arr(webhook.conversionReviewVersions).length > 0) errs.push(fieldErrors.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

/** All versions carry the same non-empty value of a per-version field: upstream validates it once, at the top level. */
function identical(versions: Json[], field: string, present: (v: unknown) => boolean): boolean {
  return versions.length > 0 && versions.every((v) => present(v[field]) && jsonEqual(v[field], versions[0][field]));
}

function storedVersions(status: Json, versions: Json[], path: string): FieldError[] {
  const stored = arr(status.storedVersions).map(str);
  if (stored.length === 0) return [fieldErrors.invalid(path, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const left = new Map(stored.map((v, i) => [v, i] as const));
  for (const v of versions) {
    const name = str(v.name);
    if (v.storage === true && !left.has(name) && !stored.includes(name)) errs.push(fieldErrors.invalid(path, stored, `must have the storage version ${name}`));
    left.delete(name);
  }
  for (const [v, i] of left) {
    errs.push(
      fieldErrors.invalid(
        `${path}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

export function validateCRDSpec(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const group = str(spec.group);
  if (!group) errs.push(fieldErrors.required('spec.group', ''));
  else if (validateDNS1123Subdomain(group).length) errs.push(fieldErrors.invalid('spec.group', group, validateDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errs.push(fieldErrors.invalid('spec.group', group, 'should be a domain with at least one dot'));
  const scope = str(spec.scope);
  if (!scope) errs.push(fieldErrors.required('spec.scope', ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(fieldErrors.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));

  const versions = arr(spec.versions).map((v) => (isObj(v) ? v : {}));
  const hasSchema = (v: unknown) => isObj(v) && isObj(v.openAPIV3Schema);
  const sharedSchema = identical(versions, 'schema', hasSchema);
  const sharedSub = identical(versions, 'subresources', (v) => v !== undefined && v !== null);
  const sharedCols = identical(versions, 'additionalPrinterColumns', (v) => arr(v).length > 0);
  const sharedSel = identical(versions, 'selectableFields', (v) => arr(v).length > 0);
  const statusOn = (v: Json) => isObj(v.subresources) && v.subresources.status !== undefined && v.subresources.status !== null;
  const anyStatus = versions.some(statusOn);

  if (!sharedSchema) {
    versions.forEach((v, i) => {
      if (!hasSchema(v.schema)) errs.push(fieldErrors.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
    });
  }
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    if (v.storage === true) storage++;
    const name = str(v.name);
    if (seen.has(name)) unique = false;
    seen.add(name);
    const e = validateDNS1035Label(name);
    if (e.length) errs.push(fieldErrors.invalid(`${p}.name`, name, e.join(',')));
    if (v.deprecated !== true && v.deprecationWarning !== undefined) errs.push(fieldErrors.invalid(`${p}.deprecationWarning`, v.deprecationWarning, 'can only be set for deprecated versions'));
    else if (typeof v.deprecationWarning === 'string') {
      if (v.deprecationWarning.length > 256) errs.push(fieldErrors.invalid(`${p}.deprecationWarning`, v.deprecationWarning, 'must be <= 256 characters long'));
      if (v.deprecationWarning.length === 0) errs.push(fieldErrors.invalid(`${p}.deprecationWarning`, v.deprecationWarning, 'must not be an empty string'));
    }
    if (!sharedSchema && hasSchema(v.schema)) errs.push(...validateCRDSchema((v.schema as Json).openAPIV3Schema, `${p}.schema.openAPIV3Schema`, { statusEnabled: statusOn(v) }));
    if (!sharedSub) errs.push(...subresources(v.subresources, `${p}.subresources`));
    if (!sharedCols) arr(v.additionalPrinterColumns).forEach((c, j) => errs.push(...column(c, `${p}.additionalPrinterColumns[${j}]`)));
    if (!sharedSel && arr(v.selectableFields).length > 0) {
      const schema = hasSchema(v.schema) ? (v.schema as Json).openAPIV3Schema : undefined;
      if (!schema) errs.push(fieldErrors.invalid(`${p}.selectableFields`, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
      else errs.push(...validateSelectableFields(arr(v.selectableFields), schema, `${p}.selectableFields`));
    }
  });
  if (!unique) errs.push(fieldErrors.invalid('spec.versions', goVersions(versions), 'must contain unique version names'));
  if (storage !== 1) errs.push(fieldErrors.invalid('spec.versions', goVersions(versions), 'must have exactly one version marked as storage version'));

  const n = isObj(spec.names) ? spec.names : {};
  for (const f of ['plural', 'singular', 'kind', 'listKind']) if (!str(n[f])) errs.push(fieldErrors.required(`spec.names.${f}`, ''));
  errs.push(...names(n, 'spec.names'));

  if (sharedSchema) errs.push(...validateCRDSchema((versions[0].schema as Json).openAPIV3Schema, 'spec.validation.openAPIV3Schema', { statusEnabled: anyStatus }));
  if (sharedSub) errs.push(...subresources(versions[0].subresources, 'spec.subresources'));
  if (sharedCols) arr(versions[0].additionalPrinterColumns).forEach((c, j) => errs.push(...column(c, `spec.additionalPrinterColumns[${j}]`)));
  if (sharedSel) {
    const schema = sharedSchema ? (versions[0].schema as Json).openAPIV3Schema : undefined;
    if (!schema) errs.push(fieldErrors.invalid('spec.selectableFields', '', 'selectableFields may only be set when validations.schema is included'));
    else errs.push(...validateSelectableFields(arr(versions[0].selectableFields), schema, 'spec.selectableFields'));
  }
  errs.push(...conversion(spec.conversion, spec.preserveUnknownFields === true, 'spec.conversion'));
  return errs;
}

function nameErrors(obj: Obj): FieldError[] {
  const name = str(obj.metadata?.name);
  if (!name) return [];
  const spec = isObj(obj.spec) ? obj.spec : {};
  const want = `${str(isObj(spec.names) ? spec.names.plural : '')}.${str(spec.group)}`;
  const msgs = validateDNS1123Subdomain(name);
  if (name !== want) msgs.push('must be spec.names.plural+"."+spec.group');
  return msgs.map((m) => fieldErrors.invalid('metadata.name', name, m));
}

function preserveUnknown(obj: Obj, old: Obj | undefined): FieldError[] {
  if (old && isObj(old.spec) && old.spec.preserveUnknownFields === true) return [];
  if (isObj(obj.spec) && obj.spec.preserveUnknownFields === true) {
    return [fieldErrors.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function statusErrors(obj: Obj): FieldError[] {
  const status = isObj(obj.status) ? obj.status : {};
  return isObj(status.acceptedNames) ? names(status.acceptedNames, 'status.acceptedNames') : [];
}

function versionsOf(obj: Obj): Json[] {
  return arr(isObj(obj.spec) ? obj.spec.versions : undefined).map((v) => (isObj(v) ? v : {}));
}

/** Errors of a CRD on create (the object as prepared: status.storedVersions set). */
export function validateCRD(obj: Obj): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  return [
    ...nameErrors(obj),
    ...validateCRDSpec(spec),
    ...statusErrors(obj),
    ...storedVersions(isObj(obj.status) ? obj.status : {}, versionsOf(obj), 'status.storedVersions'),
    ...preserveUnknown(obj, undefined),
  ];
}

function established(obj: Obj): boolean {
  const conds = arr(isObj(obj.status) ? obj.status.conditions : undefined);
  return conds.some((c) => isObj(c) && c.type === 'Established' && c.status === 'True');
}

export function validateCRDUpdate(obj: Obj, old: Obj): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const errs = validateCRDSpec(spec);
  if (established(old)) {
    errs.push(...immutable('spec.scope', spec.scope, oldSpec.scope));
    errs.push(...immutable('spec.names.kind', isObj(spec.names) ? spec.names.kind : undefined, isObj(oldSpec.names) ? oldSpec.names.kind : undefined));
  }
  errs.push(...immutable('spec.group', spec.group, oldSpec.group));
  errs.push(...immutable('spec.names.plural', isObj(spec.names) ? spec.names.plural : undefined, isObj(oldSpec.names) ? oldSpec.names.plural : undefined));
  errs.push(...statusErrors(obj));
  errs.push(...storedVersions(isObj(obj.status) ? obj.status : {}, versionsOf(obj), 'status.storedVersions'));
  errs.push(...preserveUnknown(obj, old));
  return errs;
}
