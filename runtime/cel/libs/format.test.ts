// Conformance-style table tests of the format library: named formats,
// validate() results with upstream's messages, and the costs.
import { describe, it, expect } from 'vitest';
import { run, compileErrors } from '../testing/run.ts';
import { compileRule } from '../compile.ts';

describe('format library', () => {
  it.each<[string, unknown]>([
    ['format.dns1123Label().validate("my-label-name").hasValue()', false],
    [
      'format.dns1123Label().validate("My-Label").value()',
      [
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ['format.dns1123Subdomain().validate("apiextensions.k8s.io").hasValue()', false],
    ['format.dns1123Subdomain().validate("a_b").hasValue()', true],
    ['format.dns1035Label().validate("my-label-name").hasValue()', false],
    [
      'format.dns1035Label().validate("1abc").value()',
      [
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ['format.qualifiedName().validate("apiextensions.k8s.io/v1beta1").hasValue()', false],
    ['format.qualifiedName().validate("a/b/c").hasValue()', true],
    ['format.dns1123LabelPrefix().validate("my-label-prefix-").hasValue()', false],
    ['format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-").hasValue()', false],
    ['format.dns1035LabelPrefix().validate("my-label-prefix-").hasValue()', false],
    ['format.labelValue().validate("my_value").hasValue()', false],
    ['format.labelValue().validate("-x").hasValue()', true],
    ['format.uri().validate("http://example.com").hasValue()', false],
    ['format.uri().validate("example").value()', ['parse "example": invalid URI for request']],
    ['format.uuid().validate("123e4567-e89b-12d3-a456-426614174000").hasValue()', false],
    ['format.uuid().validate("123e4567").value()', ['does not match the UUID format']],
    ['format.byte().validate("aGVsbG8=").hasValue()', false],
    ['format.byte().validate("aGVsbG8").value()', ['invalid base64']],
    ['format.date().validate("2021-01-01").hasValue()', false],
    ['format.date().validate("2021-02-30").value()', ['invalid date']],
    ['format.datetime().validate("2021-01-01T00:00:00Z").hasValue()', false],
    ['format.datetime().validate("2021-01-01T00:00:00.123+02:00").hasValue()', false],
    ['format.datetime().validate("yesterday").value()', ['invalid datetime']],
    ['format.named("dns1123Label").hasValue()', true],
    ['format.named("dns1123Label").value().validate("x").hasValue()', false],
    ['format.named("nope").hasValue()', false],
    ['format.named("dns1123Label").value() == format.dns1123Label()', true],
    ['format.dns1123Label() == format.dns1035Label()', false],
  ])('%s', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it('types validate() as an optional list of strings', () => {
    expect(compileErrors('format.dns1123Label().validate("x").value().join("\\n") == ""')).toEqual([]);
    expect(compileErrors('format.dns1123Label().validate(1)')[0]).toContain("found no matching overload for 'validate'");
    expect(compileErrors('format.nope()')[0]).toContain('undeclared reference to');
  });

  it('charges validate() as a regex match over the string', () => {
    const vars = { s: { type: 'string', maxLength: 100 } };
    const c = compileRule('format.dns1123Label().validate(self.s).hasValue()'.replace('self.s', 's'), { vars, resultType: 'any' });
    if (!c.ok) throw new Error(c.errors[0].message);
    // estimate: the string's traversal (100 x 0.1 = 10) times the name-format regex factor (128 x 0.25 = 32)
    expect(c.costEstimate).toBe(1 + 1 + 10 * 32 + 1);
    // runtime: ceil((1 + 9) x 0.1) = 1 times ceil(30 x 0.25) = 8 for the DNS-1123 label format
    expect(c.program.evaluate({ s: 'abcdefghi' }).cost).toBe(1 + 8 + 1);
  });
});
