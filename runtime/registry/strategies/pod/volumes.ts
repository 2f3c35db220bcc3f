// Pod volumes, wherever a PodSpec appears: defaults (a volume with no source
// is an emptyDir; file modes 0644; token expiry 1h) and the rules of the
// Volume table with upstream's paths and texts — name, exactly one source,
// hostPath, secret, configMap, downwardAPI, projected (service account token
// expiry at least 10 minutes), persistentVolumeClaim, ephemeral claim
// template, csi, nfs; file modes 0 to 0777; KeyToPath and downward API paths.

import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { validateDNS1123Label } from '../../../api/validation.ts';

export const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
const DEFAULT_MODE = 0o644;

const SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const DOWNWARD_FIELDS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

export function defaultVolumes(volumes: unknown): void {
  if (!Array.isArray(volumes)) return;
  for (const v of volumes as Obj[]) {
    if (!v || typeof v !== 'object') continue;
    if (!SOURCES.some((s) => v[s] !== undefined)) v.emptyDir = {};
    for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
      if (v[k] && typeof v[k] === 'object' && v[k].defaultMode === undefined) v[k].defaultMode = DEFAULT_MODE;
    }
    if (v.hostPath && v.hostPath.type === undefined) v.hostPath.type = '';
    if (Array.isArray(v.projected?.sources)) {
      for (const src of v.projected.sources) {
        if (src?.serviceAccountToken && src.serviceAccountToken.expirationSeconds === undefined) src.serviceAccountToken.expirationSeconds = 3600;
      }
    }
  }
}

function modeErrors(path: string, mode: unknown): FieldError[] {
  if (mode === undefined) return [];
  return typeof mode === 'number' && Number.isInteger(mode) && mode >= 0 && mode <= 0o777 ? [] : [fieldErrors.invalid(path, mode, FILE_MODE_MSG)];
}

/** A relative path that stays below the volume's root. */
export function localPathErrors(path: string, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.startsWith('/')) errs.push(fieldErrors.invalid(path, p, 'must be a relative path'));
  const parts = p.split('/');
  if (parts.includes('..')) errs.push(fieldErrors.invalid(path, p, "must not contain '..'"));
  return errs;
}

/** Like localPathErrors, and not starting with `..` (reserved for the atomic writer's own files). */
function nonReservedPathErrors(path: string, p: string): FieldError[] {
  const errs = localPathErrors(path, p);
  if (p.startsWith('..')) errs.push(fieldErrors.invalid(path, p, "must not start with '..'"));
  return errs;
}

function keyToPathErrors(path: string, items: unknown): FieldError[] {
  if (!Array.isArray(items)) return [];
  const errs: FieldError[] = [];
  (items as Obj[]).forEach((it, i) => {
    const p = `${path}[${i}]`;
    if (!it?.key) errs.push(fieldErrors.required(`${p}.key`, ''));
    if (!it?.path) errs.push(fieldErrors.required(`${p}.path`, ''));
    else errs.push(...nonReservedPathErrors(`${p}.path`, it.path));
    errs.push(...modeErrors(`${p}.mode`, it?.mode));
  });
  return errs;
}

function downwardItemsErrors(path: string, items: unknown): FieldError[] {
  if (!Array.isArray(items)) return [];
  const errs: FieldError[] = [];
  (items as Obj[]).forEach((it, i) => {
    const p = `${path}[${i}]`;
    if (!it?.path) errs.push(fieldErrors.required(`${p}.path`, ''));
    else errs.push(...nonReservedPathErrors(`${p}.path`, it.path));
    errs.push(...modeErrors(`${p}.mode`, it?.mode));
    const hasField = it?.fieldRef !== undefined;
    const hasResource = it?.resourceFieldRef !== undefined;
    if (hasField && hasResource) errs.push(fieldErrors.invalid(p, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    else if (!hasField && !hasResource) errs.push(fieldErrors.required(p, 'one of fieldRef and resourceFieldRef is required'));
    if (hasField) {
      const fp: string = it.fieldRef.fieldPath ?? '';
      if (!fp) errs.push(fieldErrors.required(`${p}.fieldRef.fieldPath`, ''));
      else if (!DOWNWARD_FIELDS.includes(fp) && !/^metadata\.(labels|annotations)\[.+\]$/.test(fp)) {
        errs.push(fieldErrors.notSupported(`${p}.fieldRef.fieldPath`, fp, DOWNWARD_FIELDS));
      }
    }
    if (hasResource && !it.resourceFieldRef.resource) errs.push(fieldErrors.required(`${p}.resourceFieldRef.resource`, ''));
  });
  return errs;
}

function projectedErrors(path: string, pr: Obj): FieldError[] {
  const errs: FieldError[] = [...modeErrors(`${path}.defaultMode`, pr.defaultMode)];
  const paths = new Set<string>();
  const addPath = (p: string, field: string) => {
    if (paths.has(p)) errs.push(fieldErrors.invalid(field, p, 'conflicting duplicate paths'));
    paths.add(p);
  };
  (Array.isArray(pr.sources) ? pr.sources : []).forEach((src: Obj, i: number) => {
    const sp = `${path}.sources[${i}]`;
    const kinds = ['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle'].filter((k) => src?.[k] !== undefined);
    if (kinds.length === 0) errs.push(fieldErrors.required(sp, 'must specify exactly 1 of: secret, configMap, downwardAPI, serviceAccountToken, clusterTrustBundle'));
    for (const extra of kinds.slice(1)) errs.push(fieldErrors.forbidden(`${sp}.${extra}`, 'may not specify more than 1 volume type per source'));
    if (src?.secret) {
      errs.push(...keyToPathErrors(`${sp}.secret.items`, src.secret.items));
      for (const [j, it] of (src.secret.items ?? []).entries()) if (it?.path) addPath(it.path, `${sp}.secret.items[${j}].path`);
    }
    if (src?.configMap) {
      errs.push(...keyToPathErrors(`${sp}.configMap.items`, src.configMap.items));
      for (const [j, it] of (src.configMap.items ?? []).entries()) if (it?.path) addPath(it.path, `${sp}.configMap.items[${j}].path`);
    }
    if (src?.downwardAPI) {
      errs.push(...downwardItemsErrors(`${sp}.downwardAPI.items`, src.downwardAPI.items));
      for (const [j, it] of (src.downwardAPI.items ?? []).entries()) if (it?.path) addPath(it.path, `${sp}.downwardAPI.items[${j}].path`);
    }
    const tok = src?.serviceAccountToken;
    if (tok) {
      const tp = `${sp}.serviceAccountToken`;
      const exp = tok.expirationSeconds;
      if (typeof exp === 'number' && exp < MIN_TOKEN_SECONDS) errs.push(fieldErrors.invalid(`${tp}.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
      if (typeof exp === 'number' && exp > MAX_TOKEN_SECONDS) errs.push(fieldErrors.invalid(`${tp}.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
      if (!tok.path) errs.push(fieldErrors.required(`${tp}.path`, ''));
      else {
        errs.push(...nonReservedPathErrors(`${tp}.path`, tok.path));
        addPath(tok.path, `${tp}.path`);
      }
    }
  });
  return errs;
}

function ephemeralErrors(path: string, eph: Obj): FieldError[] {
  const tpl = eph.volumeClaimTemplate;
  if (!tpl) return [fieldErrors.required(`${path}.volumeClaimTemplate`, '')];
  const errs: FieldError[] = [];
  const tp = `${path}.volumeClaimTemplate`;
  const spec = tpl.spec;
  if (!spec) return [fieldErrors.required(`${tp}.spec`, '')];
  const md = tpl.metadata ?? {};
  for (const f of ['name', 'namespace', 'generateName', 'uid', 'resourceVersion']) {
    if (md[f]) errs.push(fieldErrors.forbidden(`${tp}.metadata.${f}`, 'not allowed in a volume claim template'));
  }
  if (!Array.isArray(spec.accessModes) || spec.accessModes.length === 0) {
    errs.push(fieldErrors.required(`${tp}.spec.accessModes`, 'at least 1 access mode is required'));
  }
  if (!spec.resources?.requests?.storage) errs.push(fieldErrors.required(`${tp}.spec.resources[storage]`, ''));
  return errs;
}

function volumeSourceErrors(path: string, v: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const present = SOURCES.filter((s) => v[s] !== undefined);
  if (present.length === 0) errs.push(fieldErrors.required(path, 'must specify a volume type'));
  for (const extra of present.slice(1)) errs.push(fieldErrors.forbidden(`${path}.${extra}`, 'may not specify more than 1 volume type'));
  const hp = v.hostPath;
  if (hp) {
    if (!hp.path) errs.push(fieldErrors.required(`${path}.hostPath.path`, ''));
    else if (String(hp.path).split('/').includes('..')) errs.push(fieldErrors.invalid(`${path}.hostPath.path`, hp.path, "must not contain '..'"));
    if (hp.type !== undefined && !HOST_PATH_TYPES.includes(hp.type)) errs.push(fieldErrors.notSupported(`${path}.hostPath.type`, hp.type, HOST_PATH_TYPES));
  }
  if (v.emptyDir) {
    const m = v.emptyDir.medium;
    if (m !== undefined && m !== '' && m !== 'Memory' && !/^HugePages(-.+)?$/.test(m)) errs.push(fieldErrors.notSupported(`${path}.emptyDir.medium`, m, ['', 'Memory', 'HugePages']));
  }
  if (v.secret) {
    if (!v.secret.secretName) errs.push(fieldErrors.required(`${path}.secret.secretName`, ''));
    errs.push(...modeErrors(`${path}.secret.defaultMode`, v.secret.defaultMode));
    errs.push(...keyToPathErrors(`${path}.secret.items`, v.secret.items));
  }
  if (v.configMap) {
    if (!v.configMap.name) errs.push(fieldErrors.required(`${path}.configMap.name`, ''));
    errs.push(...modeErrors(`${path}.configMap.defaultMode`, v.configMap.defaultMode));
    errs.push(...keyToPathErrors(`${path}.configMap.items`, v.configMap.items));
  }
  if (v.downwardAPI) {
    errs.push(...modeErrors(`${path}.downwardAPI.defaultMode`, v.downwardAPI.defaultMode));
    errs.push(...downwardItemsErrors(`${path}.downwardAPI.items`, v.downwardAPI.items));
  }
  if (v.projected) errs.push(...projectedErrors(`${path}.projected`, v.projected));
  if (v.persistentVolumeClaim && !v.persistentVolumeClaim.claimName) errs.push(fieldErrors.required(`${path}.persistentVolumeClaim.claimName`, ''));
  if (v.ephemeral) errs.push(...ephemeralErrors(`${path}.ephemeral`, v.ephemeral));
  if (v.csi && !v.csi.driver) errs.push(fieldErrors.required(`${path}.csi.driver`, ''));
  if (v.nfs) {
    if (!v.nfs.server) errs.push(fieldErrors.required(`${path}.nfs.server`, ''));
    if (!v.nfs.path) errs.push(fieldErrors.required(`${path}.nfs.path`, ''));
    else if (!String(v.nfs.path).startsWith('/')) errs.push(fieldErrors.invalid(`${path}.nfs.path`, v.nfs.path, 'must be an absolute path'));
  }
  return errs;
}

/** Errors of a PodSpec's volumes; path is the PodSpec's (`spec`, `spec.template.spec`). */
export function volumesErrors(podSpecPath: string, volumes: unknown): FieldError[] {
  if (!Array.isArray(volumes)) return [];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (volumes as Obj[]).forEach((v, i) => {
    const path = `${podSpecPath}.volumes[${i}]`;
    if (!v || typeof v !== 'object') return;
    if (!v.name) errs.push(fieldErrors.required(`${path}.name`, ''));
    else {
      for (const m of validateDNS1123Label(v.name)) errs.push(fieldErrors.invalid(`${path}.name`, v.name, m));
      if (names.has(v.name)) errs.push(fieldErrors.duplicate(`${path}.name`, v.name));
      names.add(v.name);
    }
    errs.push(...volumeSourceErrors(path, v));
  });
  return errs;
}
