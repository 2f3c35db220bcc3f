// certificates.k8s.io/v1 CertificateSigningRequest validation, as upstream's
// for objects written through v1: the request a PEM CERTIFICATE REQUEST whose
// signature verifies, usages given, known and not repeated, signerName a
// qualified `domain/path` name (not the legacy one), expirationSeconds at
// least 600, conditions with a type and a status (Approved and Denied only
// True, and never both), no repeated condition type, and the certificate,
// when set, PEM CERTIFICATE blocks. Updates may not remove Approved, Denied
// or Failed conditions nor change a certificate once issued.

import { X509Certificate } from 'node:crypto';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { validateDNS1123Label } from '../../../api/validation.ts';
import { CSRError, parseCertificateRequest } from '../../../auth/pki/csr.ts';

export const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';

export const KEY_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** The decoded bytes of a `format: byte` field (base64 in JSON). */
export function byteField(v: unknown): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

/** Why a request is not a valid signed PKCS#10 request, if it is not. */
export function requestError(request: unknown): string | undefined {
  try {
    const req = parseCertificateRequest(byteField(request).toString('latin1'));
    return req.signatureError();
  } catch (err) {
    if (err instanceof CSRError) return err.message;
    throw err;
  }
}

/** upstream's signer name rule: `<domain>/<path>`, each part dot-separated DNS labels, the domain with two or more. */
export function signerNameErrors(path: string, name: unknown): FieldError[] {
  if (typeof name !== 'string' || name === '') return [fieldErrors.required(path, '')];
  const parts = name.split('/');
  if (parts.length !== 2) return [fieldErrors.invalid(path, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = parts;
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(fieldErrors.tooLong(path, 253));
  const labels = domain.split('.');
  for (const l of labels) {
    const msgs = validateDNS1123Label(l);
    if (msgs.length) {
      for (const m of msgs) errs.push(fieldErrors.invalid(path, domain, `validating label ${JSON.stringify(l)}: ${m}`));
      break;
    }
  }
  if (labels.length < 2) errs.push(fieldErrors.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const l of rest.split('.')) {
    const msgs = validateDNS1123Label(l);
    if (msgs.length) {
      for (const m of msgs) errs.push(fieldErrors.invalid(path, rest, `validating label ${JSON.stringify(l)}: ${m}`));
      break;
    }
  }
  return errs;
}

/** Each PEM block a CERTIFICATE that parses; at least one. */
export function certificateError(cert: unknown): string | undefined {
  const pem = byteField(cert).toString('latin1');
  if (pem.length === 0) return undefined;
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g)];
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const [i, b] of blocks.entries()) {
    if (b[1] !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found "${b[1]}"`;
    try {
      new X509Certificate(b[0]);
    } catch (err) {
      return `failed to parse certificate ${i}: ${(err as Error).message}`;
    }
  }
  return undefined;
}

export function validateConditions(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const conditions: Obj[] = Array.isArray(obj.status?.conditions) ? obj.status.conditions : [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const p = `status.conditions[${i}]`;
    const type = c?.type ?? '';
    if (!type) errs.push(fieldErrors.required(`${p}.type`, ''));
    const allowed = type === 'Approved' || type === 'Denied' ? ['True'] : CONDITION_STATUSES;
    if (!c?.status) errs.push(fieldErrors.required(`${p}.status`, ''));
    // upstream lists only "True" as supported here, whatever the type
    else if (!allowed.includes(c.status)) errs.push(fieldErrors.notSupported(`${p}.status`, c.status, ['True']));
    if (type === 'Approved') {
      approved = true;
      if (denied) errs.push(fieldErrors.invalid(`${p}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
    } else if (type === 'Denied') {
      denied = true;
      if (approved) errs.push(fieldErrors.invalid(`${p}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
    }
    if (seen.has(type)) errs.push(fieldErrors.duplicate(`${p}.type`, type));
    seen.add(type);
  });
  return errs;
}

export function validateCSR(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = obj.spec ?? {};
  const reqErr = requestError(spec.request);
  if (reqErr) errs.push(fieldErrors.invalid('spec.request', spec.request ?? '', reqErr));
  const usages: unknown[] = Array.isArray(spec.usages) ? spec.usages : [];
  if (usages.length === 0) errs.push(fieldErrors.required('spec.usages', ''));
  usages.forEach((u, i) => {
    if (!KEY_USAGES.includes(String(u))) errs.push(fieldErrors.notSupported(`spec.usages[${i}]`, u, KEY_USAGES));
  });
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (seen.has(u)) errs.push(fieldErrors.duplicate(`spec.usages[${i}]`, u));
    seen.add(u);
  });
  if (spec.signerName === LEGACY_UNKNOWN_SIGNER) errs.push(fieldErrors.invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...signerNameErrors('spec.signerName', spec.signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(fieldErrors.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(obj));
  const certErr = certificateError(obj.status?.certificate);
  if (certErr) errs.push(fieldErrors.invalid('status.certificate', '<certificate data>', certErr));
  return errs;
}

const count = (obj: Obj, type: string) => (Array.isArray(obj.status?.conditions) ? obj.status.conditions.filter((c: Obj) => c?.type === type).length : 0);

/** What every update adds to validateCSR: conditions that stay, a certificate that does not change once set. */
export function validateCSRUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validateCSR(obj);
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (count(obj, t) < count(old, t)) errs.push(fieldErrors.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  const oldCert = byteField(old.status?.certificate);
  const newCert = byteField(obj.status?.certificate);
  if (oldCert.length > 0 && !oldCert.equals(newCert)) errs.push(fieldErrors.forbidden('status.certificate', 'updates may not modify existing certificate content'));
  return errs;
}
