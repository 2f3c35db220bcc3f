// Label selectors: the string syntax of `?labelSelector=` (`a=b`, `a==b`,
// `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`) and the
// LabelSelector object (matchLabels, matchExpressions), parsed into a matcher
// that satisfies Predicate['label']. Errors are SelectorError with
// kube-apiserver's texts. No knowledge of objects or storage.
import { fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import { makeLabelSelector, requirementErrors, type LabelSelector, type Requirement, type LabelOperator } from '../../api/label-selector.ts';

/** A selector that cannot be parsed; the HTTP layer answers 400 BadRequest with its message. */
export class SelectorError extends Error {}

function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

// --- lexer -----------------------------------------------------------------

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
interface Item {
  tok: Tok;
  lit: string;
}

const KEYWORDS: Record<string, Tok> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) => '=!(),><'.includes(c);

function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isSpace(s[pos])) pos++;
    if (pos >= s.length) {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    if (isSpecial(s[pos])) {
      let buf = '';
      let last: Item | null = null;
      while (pos < s.length && isSpecial(s[pos])) {
        buf += s[pos];
        if (KEYWORDS[buf] !== undefined) {
          last = { tok: KEYWORDS[buf], lit: buf };
          pos++;
        } else if (last) break;
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
    if (t.tok === '!') {
      op = '!';
      t = this.next(true);
    }
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = qualifiedNameErrors(key);
    if (keyErrs.length) throw new Error(fieldErrors.invalid('<nil>', key, keyErrs.join('; ')).toString());
    const after = this.look(true).tok;
    // `!key` is complete by itself; what follows is checked by the caller.
    if (op === '!' || after === 'eos' || after === ',') {
      return this.checked({ key, operator: op ?? 'exists', values: [] });
    }
    const o = this.next(false);
    const ops: Partial<Record<Tok, LabelOperator>> = { in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };
    const operator = ops[o.tok];
    if (!operator) throw new Error(`found '${o.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    const values = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
    return this.checked({ key, operator, values: [...new Set(values)].sort() });
  }

  private checked(r: Requirement): Requirement {
    const errs = requirementErrors(r, null);
    if (errs.length) throw new Error(aggregate(errs));
    return r;
  }

  private setValues(): string[] {
    const t = this.next(true);
    if (t.tok !== '(') throw new Error(`found '${t.lit}' expected: '('`);
    const { tok, lit } = this.look(true);
    if (tok === ')') {
      this.next(true);
      return [''];
    }
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
        if (t2.tok === ')') {
          s.add('');
          break;
        }
        if (t2.tok === ',') {
          this.next(true);
          s.add('');
        }
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
