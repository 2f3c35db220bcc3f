// Kubernetes' CEL format library (1.31): `format.named(name)` (an optional
// format), `format.<name>()` for each named format, and
// `<format>.validate(string)`: optional.none() when the string is valid,
// otherwise the list of messages (upstream's texts). Each format carries the
// regex size upstream uses for its runtime cost. Boundary: these functions.
import { CelScalar, celList, type CelFunc } from '@bufbuild/cel';
import { Opaque, fail, defFunc, defMethod } from '../opaque.ts';
import { Optional, NONE } from './optional.ts';
import { validateDNS1123Label, validateDNS1123Subdomain, validateDNS1035Label, qualifiedNameErrors, labelValueErrors } from '../../api/validation.ts';
import { parseRequestURL } from './url.ts';

export class FormatValue extends Opaque {
  readonly name = 'kubernetes.NamedFormat';
  constructor(
    readonly formatName: string,
    readonly validate: (s: string) => string[],
    /** Size of the regex (or an equivalent) used for the cost of validate(). */
    readonly maxRegexSize: number,
  ) {
    super();
  }
  equals(o: Opaque): boolean {
    return o instanceof FormatValue && o.formatName === this.formatName;
  }
  override toString(): string {
    return this.formatName;
  }
}

/** apimachinery's maskTrailingDash: a generateName prefix may end in '-'. */
function maskTrailingDash(s: string): string {
  return s.length > 1 && s.endsWith('-') ? `${s.slice(0, -2)}a` : s;
}
const prefixed = (f: (s: string) => string[]) => (s: string) => f(maskTrailingDash(s));

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}
function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}
function isDateTime(s: string): boolean {
  const m = DATETIME.exec(s);
  if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && (m[6] === undefined || Number(m[6]) < 60);
}

// Regex lengths upstream estimates with: govalidator's URL and Base64
// patterns and strfmt's UUID and date-time patterns.
const URL_REGEX_SIZE = 1035;
const UUID_REGEX_SIZE = 79;
const BASE64_REGEX_SIZE = 86;
const DATETIME_REGEX_SIZE = 63;

export const NAMED_FORMATS: Record<string, FormatValue> = {
  dns1123Label: new FormatValue('DNS1123Label', validateDNS1123Label, 30),
  dns1123Subdomain: new FormatValue('DNS1123Subdomain', validateDNS1123Subdomain, 60),
  dns1035Label: new FormatValue('DNS1035Label', validateDNS1035Label, 30),
  qualifiedName: new FormatValue('QualifiedName', qualifiedNameErrors, 60),
  dns1123LabelPrefix: new FormatValue('DNS1123LabelPrefix', prefixed(validateDNS1123Label), 30),
  dns1123SubdomainPrefix: new FormatValue('DNS1123SubdomainPrefix', prefixed(validateDNS1123Subdomain), 60),
  dns1035LabelPrefix: new FormatValue('DNS1035LabelPrefix', prefixed(validateDNS1035Label), 30),
  labelValue: new FormatValue('LabelValue', labelValueErrors, 40),
  uri: new FormatValue('URI', (s) => (parseRequestURL(s) ? [] : [`parse ${JSON.stringify(s)}: invalid URI for request`]), URL_REGEX_SIZE),
  uuid: new FormatValue('uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format']), UUID_REGEX_SIZE),
  byte: new FormatValue('byte', (s) => (BASE64.test(s) ? [] : ['invalid base64']), BASE64_REGEX_SIZE),
  date: new FormatValue('date', (s) => (isDate(s) ? [] : ['invalid date']), DATETIME_REGEX_SIZE),
  datetime: new FormatValue('datetime', (s) => (isDateTime(s) ? [] : ['invalid datetime']), DATETIME_REGEX_SIZE),
};

/** The estimate's regex size for validate(): upstream's MaxNameFormatRegexSize. */
export const MAX_NAME_FORMAT_REGEX_SIZE = 128;

const S = CelScalar.STRING;
const DYN = CelScalar.DYN;

export const formatFuncs: CelFunc[] = [
  defFunc('format.named', [S], DYN, (name) => (Object.hasOwn(NAMED_FORMATS, name) ? new Optional(NAMED_FORMATS[name] as never) : NONE)),
  ...Object.entries(NAMED_FORMATS).map(([name, f]) => defFunc(`format.${name}`, [], DYN, () => f)),
  defMethod('validate', DYN, [S], DYN, function (s) {
    const f = this as unknown;
    if (!(f instanceof FormatValue)) return fail('no such overload');
    const errs = f.validate(s);
    return errs.length === 0 ? NONE : new Optional(celList(errs));
  }),
];
