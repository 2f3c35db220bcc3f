// Name and label syntax checks with upstream's texts (apimachinery
// util/validation), table-driven. The qualified-name rows include the case
// where the two former copies differed: an empty name part reports both
// "must be non-empty" and the syntax message, as upstream's IsQualifiedName.

import { describe, expect, it } from 'vitest';
import { labelValueErrors, qualifiedNameErrors, validateDNS1123Label, validateDNS1123Subdomain, validateName } from './validation.ts';

const QNAME_SYNTAX =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN_SYNTAX =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('qualifiedNameErrors', () => {
  it.each<[string, string[]]>([
    ['app', []],
    ['example.com/app', []],
    ['example.com/', ['name part must be non-empty', `name part ${QNAME_SYNTAX}`]],
    ['', ['name part must be non-empty', `name part ${QNAME_SYNTAX}`]],
    ['/app', ['prefix part must be non-empty']],
    ['Bad_/app', [`prefix part ${SUBDOMAIN_SYNTAX}`]],
    ['-app', [`name part ${QNAME_SYNTAX}`]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    ['a/b/c', [`a qualified name ${QNAME_SYNTAX} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`]],
  ])('%j', (v, want) => {
    expect(qualifiedNameErrors(v)).toEqual(want);
  });
});

describe('labelValueErrors', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['my_value', []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    [
      '-x',
      [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
  ])('%j', (v, want) => {
    expect(labelValueErrors(v)).toEqual(want);
  });
});

describe('DNS-1123 names', () => {
  it('labels and subdomains', () => {
    expect(validateDNS1123Label('my-name')).toEqual([]);
    expect(validateDNS1123Label('a.b')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(validateDNS1123Subdomain('a.b')).toEqual([]);
    expect(validateDNS1123Subdomain('A')).toEqual([SUBDOMAIN_SYNTAX]);
    expect(validateDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });
  it('name rules, generateName prefixes ending in - or .', () => {
    expect(validateName('subdomain', 'web-', true)).toEqual([]);
    expect(validateName('label', 'a.b')).toHaveLength(1);
    expect(validateName('path-segment', '..')).toEqual(["may not be '..'"]);
  });
});
