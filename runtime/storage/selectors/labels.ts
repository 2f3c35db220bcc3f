// Label selectors: the string syntax of `?labelSelector=` (`a=b`, `a==b`,
// `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`) and the
// LabelSelector object (matchLabels, matchExpressions), parsed into a matcher
// that satisfies Predicate['label']. Errors are SelectorError with
// kube-apiserver's texts. No knowledge of objects or storage.
import { invalidValue, isQualifiedName, isValidLabelValue } from './validation.ts';

/** A selector that cannot be parsed; the HTTP layer answers 400 BadRequest with its message. */
export class SelectorError extends Error {}

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface LabelSelector {
  matches(labels: Record<string, string>): boolean;
  empty(): boolean;
  requirements: Requirement[];
  toString(): string;
}

const has = (o: Record<string, string>, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export function requirementMatches(r: Requirement, labels: Record<string, string>): boolean {
  switch (r.operator) {
    case 'in': case '=': case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key]);
    case 'notin': case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key]);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt': case 'lt': {
      if (!has(labels, r.key) || !/^[+-]?[0-9]+$/.test(labels[r.key])) return false;
      const v = BigInt(labels[r.key]);
      const want = BigInt(r.values[0]);
      return r.operator === 'gt' ? v > want : v < want;
    }
  }
}

function requirementString(r: Requirement): string {
  const vals = [...r.values].sort().join(',');
  switch (r.operator) {
    case '!': return '!' + r.key;
    case 'exists': return r.key;
    case 'in': return `${r.key} in (${vals})`;
    case 'notin': return `${r.key} notin (${vals})`;
    case 'gt': return `${r.key}>${vals}`;
    case 'lt': return `${r.key}<${vals}`;
    default: return `${r.key}${r.operator}${vals}`;
  }
}

export function makeLabelSelector(reqs: Requirement[]): LabelSelector {
  const sorted = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements: sorted,
    matches: (labels) => sorted.every((r) => requirementMatches(r, labels)),
    empty: () => sorted.length === 0,
    toString: () => sorted.map(requirementString).join(','),
  };
}

/** Matches no object (a null LabelSelector object). */
export const NOTHING: LabelSelector = {
  requirements: [], matches: () => false, empty: () => false, toString: () => '',
};

/** Checks a requirement as upstream's NewRequirement does; returns the error messages. */
function validateRequirement(r: Requirement, path: string | null): string[] {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(r.key);
  if (keyErrs.length) errs.push(invalidValue(path === null ? 'key' : `${path}.key`, r.key, keyErrs.join('; ')));
  const valuePath = path === null ? 'values' : `${path}.values`;
  const listText = `[]string{${r.values.map((v) => JSON.stringify(v)).join(', ')}}`;
  switch (r.operator) {
    case 'in': case 'notin':
      if (r.values.length === 0) errs.push(`${valuePath}: Invalid value: ${listText}: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=': case '==': case '!=':
      if (r.values.length !== 1) errs.push(`${valuePath}: Invalid value: ${listText}: exact-match compatibility requires one single value`);
      break;
    case 'exists': case '!':
      if (r.values.length !== 0) errs.push(`${valuePath}: Invalid value: ${listText}: values set must be empty for exists and does not exist`);
      break;
    case 'gt': case 'lt':
      if (r.values.length !== 1) errs.push(`${valuePath}: Invalid value: ${listText}: for 'Gt', 'Lt' operators, exactly one value is required`);
      r.values.forEach((v, i) => {
        if (!/^[+-]?[0-9]+$/.test(v)) errs.push(invalidValue(`${valuePath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  r.values.forEach((v, i) => {
    const ve = isValidLabelValue(v);
    if (ve.length) errs.push(invalidValue(`${valuePath}[${i}][${r.key}]`, v, ve.join('; ')));
  });
  return errs;
}

function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

// --- lexer -----------------------------------------------------------------

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
interface Item { tok: Tok; lit: string }

const KEYWORDS: Record<string, Tok> = {
  ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', 'in': 'in', '<': '<', '!=': '!=', 'notin': 'notin', '(': '(',
};
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) => '=!(),><'.includes(c);

function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isSpace(s[pos])) pos++;
    if (pos >= s.length) { items.push({ tok: 'eos', lit: '' }); return items; }
    if (isSpecial(s[pos])) {
      let buf = '';
      let last: Item | null = null;
      while (pos < s.length && isSpecial(s[pos])) {
        buf += s[pos];
        if (KEYWORDS[buf] !== undefined) { last = { tok: KEYWORDS[buf], lit: buf }; pos++; }
        else if (last) break;
        else pos++;
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      while (pos < s.length && !isSpecial(s[pos]) && !isSpace(s[pos])) buf += s[pos++];
      items.push({ tok: KEYWORDS[buf] ?? 'id', lit: buf });
    }
  }
}

// --- parser ----------------------------------------------------------------

class Parser {
  private pos = 0;
  constructor(private items: Item[]) {}

  /** In a value position, `in` and `notin` are plain identifiers. */
  private look(values: boolean): Item {
    const it = this.items[this.pos];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }
  private next(values: boolean): Item {
    const it = this.look(values);
    this.pos++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.look(true);
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      let r: Requirement;
      try {
        r = this.requirement();
      } catch (e) {
        throw new SelectorError(`unable to parse requirement: ${(e as Error).message}`);
      }
      reqs.push(r);
      const t = this.next(true);
      if (t.tok === 'eos') return reqs;
      if (t.tok !== ',') throw new SelectorError(`found '${t.lit}', expected: ',' or 'end of string'`);
      const t2 = this.look(true);
      if (t2.tok !== 'id' && t2.tok !== '!') throw new SelectorError(`found '${t2.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    let t = this.next(true);
    let op: LabelOperator | null = null;
    if (t.tok === '!') { op = '!'; t = this.next(true); }
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw new Error(invalidValue(null, key, keyErrs.join('; ')));
    const after = this.look(true).tok;
    // `!key` is complete by itself; what follows is checked by the caller.
    if (op === '!' || after === 'eos' || after === ',') {
      return this.checked({ key, operator: op ?? 'exists', values: [] });
    }
    const o = this.next(false);
    const ops: Partial<Record<Tok, LabelOperator>> = { 'in': 'in', 'notin': 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };
    const operator = ops[o.tok];
    if (!operator) throw new Error(`found '${o.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    const values = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
    return this.checked({ key, operator, values: [...new Set(values)].sort() });
  }

  private checked(r: Requirement): Requirement {
    const errs = validateRequirement(r, null);
    if (errs.length) throw new Error(aggregate(errs));
    return r;
  }

  private setValues(): string[] {
    const t = this.next(true);
    if (t.tok !== '(') throw new Error(`found '${t.lit}' expected: '('`);
    const { tok, lit } = this.look(true);
    if (tok === ')') { this.next(true); return ['']; }
    if (tok !== 'id' && tok !== ',') throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
    const s = new Set<string>();
    for (;;) {
      const it = this.next(true);
      if (it.tok === 'id') {
        s.add(it.lit);
        const t2 = this.look(true);
        if (t2.tok === ',') continue;
        if (t2.tok === ')') break;
        throw new Error(`found '${t2.lit}', expected: ',' or ')'`);
      } else if (it.tok === ',') {
        if (s.size === 0) s.add('');
        const t2 = this.look(true);
        if (t2.tok === ')') { s.add(''); break; }
        if (t2.tok === ',') { this.next(true); s.add(''); }
      } else {
        throw new Error(`found '${it.lit}', expected: ',', or identifier`);
      }
    }
    if (this.next(true).tok !== ')') throw new Error(`found '${lit}', expected: ')'`);
    return [...s];
  }

  private exactValue(): string[] {
    const { tok } = this.look(true);
    if (tok === 'eos' || tok === ',') return [''];
    const t = this.next(true);
    if (t.tok === 'id') return [t.lit];
    throw new Error(`found '${t.lit}', expected: identifier`);
  }
}

/** Parses the `labelSelector` query syntax; '' matches everything. */
export function parseLabelSelector(text: string): LabelSelector {
  return makeLabelSelector(new Parser(lex(text)).parse());
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

/**
 * A LabelSelector object as a matcher: null matches nothing, {} everything.
 * Operators In, NotIn, Exists, DoesNotExist.
 */
export function labelSelectorFromObject(ls: LabelSelectorObject | null | undefined): LabelSelector {
  if (ls === null || ls === undefined) return NOTHING;
  const reqs: Requirement[] = [];
  const errs: string[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) {
    const r: Requirement = { key: k, operator: '=', values: [v] };
    errs.push(...validateRequirement(r, null));
    reqs.push(r);
  }
  const opMap: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };
  for (const e of ls.matchExpressions ?? []) {
    const op = opMap[e.operator];
    if (!op) throw new SelectorError(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    const r: Requirement = { key: e.key, operator: op, values: [...(e.values ?? [])] };
    errs.push(...validateRequirement(r, null));
    reqs.push(r);
  }
  if (errs.length) throw new SelectorError(aggregate(errs));
  return makeLabelSelector(reqs);
}
