// Go's %#v of a resource.Quantity as apimachinery's ParseQuantity builds it
// from a quantity's text, for the field errors that print a quantity (a
// *Quantity's value has no String method, so upstream prints the struct:
// `resource.Quantity{i:resource.int64Amount{value:0, scale:0},
// d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"0", Format:"DecimalSI"}`).
// The fast path only: an int64 mantissa and a scale of at least -9, with the
// text kept (s) when it is already canonical. A quantity the parser keeps as
// an arbitrary-precision decimal prints a pointer upstream, which cannot be
// reproduced: such a text (or one that is no quantity) is answered as is.

import { GoValue, goQuote } from './go-format.ts';

const MAX_INT64_FACTORS = 18;
const NANO = -9;
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const INT64_MAX = (1n << 63n) - 1n;

function literal(value: bigint, scale: number, s: string, format: string): GoValue {
  return new GoValue(`resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${goQuote(s)}, Format:${goQuote(format)}}`);
}

/** The suffix's base, exponent and format (quantitySuffixer.interpret); undefined when it is none. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: string } | undefined {
  if (suffix in DECIMAL) return { base: 10, exponent: DECIMAL[suffix], format: 'DecimalSI' };
  if (suffix in BINARY) return { base: 2, exponent: BINARY[suffix], format: 'BinarySI' };
  if (/^[eE][-+]?\d+$/.test(suffix)) return { base: 10, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  return undefined;
}

/** The %#v of the Quantity `text` parses to, or the text itself where that cannot be printed. */
export function quantityGoValue(text: string): GoValue | string {
  if (text === '0') return literal(0n, 0, text, 'DecimalSI');
  const m = /^([+-]?)0*(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[-+]?\d*)$/.exec(text);
  if (!m || !/\d/.test(text)) return text;
  const [, sign, digits, denomPart, suffix] = m;
  const num = digits || '0';
  const denom = denomPart ?? '';
  const how = interpret(suffix);
  if (!how) return text;
  let scale = 0;
  let precision: number;
  let mantissa = 1n;
  if (how.base === 10) {
    scale = how.exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  } else if (denom.length === 0) {
    mantissa = 1n << BigInt(how.exponent);
    precision = 15 - num.length - Math.trunc((how.exponent * 3) / 10) - 1;
  } else precision = -1;
  if (precision < 0) return text;
  scale -= denom.length;
  if (scale < NANO) return text;
  const shifted = num + denom;
  const value = BigInt(shifted);
  const result = value * mantissa;
  if (value > INT64_MAX || result > INT64_MAX) return text;
  const signed = sign === '-' ? -result : result;
  const canonical = how.base === 2 ? how.exponent % 10 === 0 && (value & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  return literal(signed, scale, canonical ? text : '', how.format);
}
