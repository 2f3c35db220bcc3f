// The checks of a webhook clientConfig's url and service that
// kube-apiserver shares between CRD conversion webhooks and admission
// webhook configurations (apiserver's util/webhook ValidateWebhookURL and
// ValidateWebhookService), with upstream's texts.
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { goQuote } from '../../../api/go-format.ts';
import { validateDNS1123Subdomain } from '../../../api/validation.ts';

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's url.Parse, as far as the webhook URL checks need it. */
function parseGoURL(u: string): { scheme: string; user: string; host: string; query: string; fragment: string } | string {
  if (/[\x00-\x1f\x7f]/.test(u)) return `parse ${goQuote(u)}: net/url: invalid control character in URL`;
  let rest = u;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1].toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/?]*:/.test(rest)) {
    return `parse ${goQuote(u)}: first path segment in URL cannot contain colon`;
  }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let user = '';
  let host = '';
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    host = authority;
  }
  return { scheme, user, host, query, fragment };
}

export function webhookURL(u: string, path: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const parsed = parseGoURL(u);
  if (typeof parsed === 'string') return [fieldErrors.required(path, `url must be a valid URL: ${parsed}${form}`)];
  const errs: FieldError[] = [];
  if (parsed.scheme !== 'https') errs.push(fieldErrors.invalid(path, parsed.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!parsed.host) errs.push(fieldErrors.invalid(path, parsed.host, `host must be specified${form}`));
  if (parsed.user) errs.push(fieldErrors.invalid(path, parsed.user, 'user information is not permitted in the URL'));
  if (parsed.fragment) errs.push(fieldErrors.invalid(path, parsed.fragment, 'fragments are not permitted in the URL'));
  if (parsed.query) errs.push(fieldErrors.invalid(path, parsed.query, 'query parameters are not permitted in the URL'));
  return errs;
}

export function webhookService(svc: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(svc.namespace)) errs.push(fieldErrors.required(`${path}.namespace`, 'service namespace is required'));
  if (!str(svc.name)) errs.push(fieldErrors.required(`${path}.name`, 'service name is required'));
  const port = svc.port ?? 443;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    errs.push(fieldErrors.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const p = svc.path;
  if (typeof p === 'string' && p !== '' && p !== '/') {
    if (p === '//') errs.push(fieldErrors.invalid(`${path}.path`, p, 'segment[0] may not be empty'));
    else {
      if (!p.startsWith('/')) errs.push(fieldErrors.invalid(`${path}.path`, p, "must start with a '/'"));
      const steps = p.slice(1).replace(/\/$/, '').split('/');
      steps.forEach((step, i) => {
        if (step === '') errs.push(fieldErrors.invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
        else for (const msg of validateDNS1123Subdomain(step)) errs.push(fieldErrors.invalid(`${path}.path`, p, `segment[${i}]: ${msg}`));
      });
    }
  }
  return errs;
}
