// The one copy of Kubernetes' name and label syntax checks, with upstream's
// texts (apimachinery's util/validation): DNS-1123 labels and subdomains,
// DNS-1035 labels,
// path-segment names, qualified names (label and annotation keys,
// finalizers) and label values; and the name rule of metadata.name (and
// generateName prefixes) per kind. Each check returns its messages, empty
// when the value is valid; callers wrap them in field errors or selector
// errors.

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const QUALIFIED_NAME_MAX = 63;
export const LABEL_VALUE_MAX = 63;

/** Upstream's RegexError: `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

const maxLen = (n: number) => `must be no more than ${n} characters`;

export function validateDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLen(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL.test(v)) errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

export function validateDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLen(DNS1123_LABEL_MAX));
  if (!DNS1035_LABEL.test(v)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

export function validateDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLen(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN.test(v)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/**
 * A qualified name (`prefix/name` or `name`): an optional DNS-1123 subdomain
 * prefix and a name part of at most 63 characters. As upstream, an empty
 * name part reports both "must be non-empty" and the syntax message.
 */
export function qualifiedNameErrors(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of validateDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [`a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errs.push(`name part ${maxLen(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function labelValueErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > LABEL_VALUE_MAX) errs.push(maxLen(LABEL_VALUE_MAX));
  if (!LABEL_VALUE.test(v)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
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
    case 'label':
      return validateDNS1123Label(v);
    case 'path-segment':
      return validatePathSegment(v);
    default:
      return validateDNS1123Subdomain(v);
  }
}
