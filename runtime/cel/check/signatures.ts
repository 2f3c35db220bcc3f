// Function signatures known to the type checker: the CEL standard library,
// the string extensions, optionals and the Kubernetes libraries, written as
// compact strings (`string.startsWith(string): bool`, `size(list(A)): int`;
// single capital letters are type parameters). Boundary: declarations only.
import { T, type CelT } from '../schema/types.ts';

export interface Signature {
  name: string;
  target?: CelT;
  args: CelT[];
  result: CelT;
}

const Q = 'kubernetes.Quantity',
  URL = 'kubernetes.URL';
const AZ = 'kubernetes.authorization.Authorizer',
  RC = 'kubernetes.authorization.ResourceCheck',
  GC = 'kubernetes.authorization.GroupCheck';
const IP = 'net.IP',
  CIDR = 'net.CIDR',
  FMT = 'kubernetes.NamedFormat';
const FORMAT_NAMES = [
  'dns1123Label',
  'dns1123Subdomain',
  'dns1035Label',
  'qualifiedName',
  'dns1123LabelPrefix',
  'dns1123SubdomainPrefix',
  'dns1035LabelPrefix',
  'labelValue',
  'uri',
  'uuid',
  'byte',
  'date',
  'datetime',
];
const PC = 'kubernetes.authorization.PathCheck',
  DEC = 'kubernetes.authorization.Decision';

const DECLS = `
size(string): int; string.size(): int; size(bytes): int; bytes.size(): int
size(list(A)): int; list(A).size(): int; size(map(K,V)): int; map(K,V).size(): int
int(int): int; int(uint): int; int(double): int; int(string): int; int(timestamp): int; int(dyn): int
uint(int): uint; uint(uint): uint; uint(double): uint; uint(string): uint; uint(dyn): uint
double(int): double; double(uint): double; double(double): double; double(string): double; double(dyn): double
string(int): string; string(uint): string; string(double): string; string(string): string; string(bytes): string; string(bool): string; string(timestamp): string; string(duration): string; string(dyn): string
bytes(string): bytes; bytes(bytes): bytes; bool(bool): bool; bool(string): bool; dyn(A): dyn; type(A): type
timestamp(string): timestamp; timestamp(timestamp): timestamp; timestamp(int): timestamp; duration(string): duration; duration(duration): duration
string.contains(string): bool; string.startsWith(string): bool; string.endsWith(string): bool; string.matches(string): bool; matches(string, string): bool
timestamp.getFullYear(): int; timestamp.getFullYear(string): int; timestamp.getMonth(): int; timestamp.getMonth(string): int
timestamp.getDayOfYear(): int; timestamp.getDayOfYear(string): int; timestamp.getDayOfMonth(): int; timestamp.getDayOfMonth(string): int
timestamp.getDate(): int; timestamp.getDate(string): int; timestamp.getDayOfWeek(): int; timestamp.getDayOfWeek(string): int
timestamp.getHours(): int; timestamp.getHours(string): int; timestamp.getMinutes(): int; timestamp.getMinutes(string): int
timestamp.getSeconds(): int; timestamp.getSeconds(string): int; timestamp.getMilliseconds(): int; timestamp.getMilliseconds(string): int
duration.getHours(): int; duration.getMinutes(): int; duration.getSeconds(): int; duration.getMilliseconds(): int
string.charAt(int): string; string.indexOf(string): int; string.indexOf(string, int): int; string.lastIndexOf(string): int; string.lastIndexOf(string, int): int
string.lowerAscii(): string; string.upperAscii(): string; string.replace(string, string): string; string.replace(string, string, int): string
string.split(string): list(string); string.split(string, int): list(string); string.substring(int): string; string.substring(int, int): string
string.trim(): string; list(string).join(): string; list(string).join(string): string; string.format(list(dyn)): string; strings.quote(string): string
string.reverse(): string
list(A).isSorted(): bool; list(A).sum(): A; list(A).min(): A; list(A).max(): A; list(A).indexOf(A): int; list(A).lastIndexOf(A): int
string.find(string): string; string.findAll(string): list(string); string.findAll(string, int): list(string)
url(string): ${URL}; isURL(string): bool; ${URL}.getScheme(): string; ${URL}.getHost(): string; ${URL}.getHostname(): string
${URL}.getPort(): string; ${URL}.getEscapedPath(): string; ${URL}.getQuery(): map(string,list(string))
quantity(string): ${Q}; isQuantity(string): bool; ${Q}.isInteger(): bool; ${Q}.asInteger(): int; ${Q}.asApproximateFloat(): double
${Q}.sign(): int; ${Q}.add(${Q}): ${Q}; ${Q}.add(int): ${Q}; ${Q}.sub(${Q}): ${Q}; ${Q}.sub(int): ${Q}
${Q}.isLessThan(${Q}): bool; ${Q}.isGreaterThan(${Q}): bool; ${Q}.compareTo(${Q}): int
${AZ}.group(string): ${GC}; ${AZ}.path(string): ${PC}; ${AZ}.serviceAccount(string, string): ${AZ}
${GC}.resource(string): ${RC}; ${RC}.subresource(string): ${RC}; ${RC}.namespace(string): ${RC}; ${RC}.name(string): ${RC}
${RC}.check(string): ${DEC}; ${PC}.check(string): ${DEC}
${DEC}.allowed(): bool; ${DEC}.reason(): string; ${DEC}.errored(): bool; ${DEC}.error(): string
sets.contains(list(A), list(A)): bool; sets.equivalent(list(A), list(A)): bool; sets.intersects(list(A), list(A)): bool
ip(string): ${IP}; isIP(string): bool; ip.isCanonical(string): bool; string(${IP}): string; ${IP}.family(): int; ${IP}.isUnspecified(): bool
${IP}.isLoopback(): bool; ${IP}.isLinkLocalMulticast(): bool; ${IP}.isLinkLocalUnicast(): bool; ${IP}.isGlobalUnicast(): bool
cidr(string): ${CIDR}; isCIDR(string): bool; string(${CIDR}): string; ${CIDR}.containsIP(string): bool; ${CIDR}.containsIP(${IP}): bool
${CIDR}.containsCIDR(string): bool; ${CIDR}.containsCIDR(${CIDR}): bool; ${CIDR}.ip(): ${IP}; ${CIDR}.masked(): ${CIDR}; ${CIDR}.prefixLength(): int
format.named(string): optional(${FMT}); ${FMT}.validate(string): optional(list(string))
${FORMAT_NAMES.map((n) => `format.${n}(): ${FMT}`).join('; ')}
optional.of(A): optional(A); optional.ofNonZeroValue(A): optional(A); optional.none(): optional(A)
optional(A).hasValue(): bool; optional(A).value(): A; optional(A).or(optional(A)): optional(A); optional(A).orValue(A): A
`;

function parseType(s: string): CelT {
  s = s.trim();
  const m = /^([\w.]+)(?:\((.*)\))?$/.exec(s);
  if (!m) throw new Error(`bad type ${s}`);
  const [, name, inner] = m;
  const params = inner !== undefined ? splitTop(inner).map(parseType) : [];
  if (/^[A-Z]$/.test(name)) return T.param(name);
  switch (name) {
    case 'list':
      return T.list(params[0]);
    case 'map':
      return T.map(params[0], params[1]);
    case 'optional':
      return T.optional(params[0]);
    case 'int':
    case 'uint':
    case 'double':
    case 'bool':
    case 'string':
    case 'bytes':
    case 'timestamp':
    case 'duration':
    case 'dyn':
    case 'type':
      return T[name];
    default:
      return T.opaque(name);
  }
}
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0,
    cur = '';
  for (const c of s) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

function parseSig(s: string): Signature {
  s = s.trim();
  const close = s.lastIndexOf('):');
  let depth = 0,
    open = -1;
  for (let i = close; i >= 0; i--) {
    if (s[i] === ')') depth++;
    else if (s[i] === '(' && --depth === 0) {
      open = i;
      break;
    }
  }
  if (close < 0 || open < 0) throw new Error(`bad signature ${s}`);
  const head = s.slice(0, open),
    args = s.slice(open + 1, close),
    result = s.slice(close + 2);
  // head is `name`, `pkg.name` (a global) or `type.method` where type is a known type expression.
  let target: CelT | undefined;
  let name = head;
  const dot = head.lastIndexOf('.');
  if (dot > 0) {
    const recv = head.slice(0, dot);
    if (/^(string|bytes|timestamp|duration|list\(.*\)|map\(.*\)|optional\(.*\)|kubernetes\.[\w.]+|net\.\w+)$/.test(recv)) {
      target = parseType(recv);
      name = head.slice(dot + 1);
    }
  }
  return { name, target, args: args.trim() ? splitTop(args).map(parseType) : [], result: parseType(result) };
}

export const SIGNATURES = new Map<string, Signature[]>();
for (const line of DECLS.split('\n')) {
  for (const decl of line.split(';')) {
    if (!decl.trim()) continue;
    const sig = parseSig(decl);
    const l = SIGNATURES.get(sig.name) ?? [];
    l.push(sig);
    SIGNATURES.set(sig.name, l);
  }
}
