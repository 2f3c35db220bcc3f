// Name rules for metadata.name (and generateName prefixes) per kind, with
// upstream's error texts: DNS-1123 subdomain, DNS-1123 label, path segment.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

export function validateDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(`must be no more than ${DNS1123_LABEL_MAX} characters`);
  if (!DNS1123_LABEL.test(v)) {
    errs.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }
  return errs;
}

export function validateDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_SUBDOMAIN_MAX) errs.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!DNS1123_SUBDOMAIN.test(v)) {
    errs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return errs;
}

/** Path segment names: anything but `.`, `..`, and names containing `/` or `%`. */
export function validatePathSegment(v: string): string[] {
  if (v === '.' || v === '..') return [`may not be '${v}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (v.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

export type NameRule = 'subdomain' | 'label' | 'path-segment';

export function validateName(rule: NameRule, name: string, prefix = false): string[] {
  // a generateName prefix may end in '-' or '.': validate it with a trailing character
  const v = prefix ? `${name.replace(/[-.]$/, '')}a` : name;
  switch (rule) {
    case 'label': return validateDNS1123Label(v);
    case 'path-segment': return validatePathSegment(v);
    default: return validateDNS1123Subdomain(v);
  }
}
