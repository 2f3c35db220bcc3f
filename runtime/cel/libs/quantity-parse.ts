// Kubernetes resource quantities: parsing (`1.5Gi`, `100m`, `1e3`), exact
// arithmetic and the canonical string form, following the rules of
// k8s.io/apimachinery resource.Quantity: values are exact decimals rounded up
// (away from zero) to nano precision; the format (BinarySI, DecimalSI,
// DecimalExponent) comes from the suffix and decides how String() prints.
// Boundary: the value type only; CEL functions are in quantity.ts.

export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL).map(([k, v]) => [v, k]));

/** value = unscaled * 10^exp, exact. */
export class QuantityValue {
  constructor(
    readonly unscaled: bigint,
    readonly exp: number,
    readonly format: QuantityFormat,
  ) {}

  static parse(s: string): QuantityValue {
    const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(.*)$/.exec(s);
    if (!m || s.length === 0) throw new Error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    const [, sign, numStr, suffix] = m;
    let format: QuantityFormat;
    let exp10 = 0;
    let pow2 = 0;
    if (suffix in BINARY) {
      format = 'BinarySI';
      pow2 = BINARY[suffix];
    } else if (suffix in DECIMAL) {
      format = 'DecimalSI';
      exp10 = DECIMAL[suffix];
    } else if (/^[eE][-+]?\d+$/.test(suffix)) {
      format = 'DecimalExponent';
      exp10 = Number(suffix.slice(1));
    } else throw new Error("unable to parse quantity's suffix");
    const [ip, fp = ''] = numStr.split('.');
    let unscaled = BigInt((ip || '0') + fp);
    const exp = exp10 - fp.length;
    if (pow2) unscaled *= 1n << BigInt(pow2);
    if (sign === '-') unscaled = -unscaled;
    return new QuantityValue(unscaled, exp, format).roundToNano();
  }

  /** Rounds up (away from zero) to 10^-9. */
  roundToNano(): QuantityValue {
    if (this.exp >= -9) return this;
    const div = 10n ** BigInt(-9 - this.exp);
    let q = this.unscaled / div;
    if (q * div !== this.unscaled) q += this.unscaled < 0n ? -1n : 1n;
    return new QuantityValue(q, -9, this.format);
  }

  sign(): number {
    return this.unscaled === 0n ? 0 : this.unscaled < 0n ? -1 : 1;
  }

  private static align(a: QuantityValue, b: QuantityValue): [bigint, bigint, number] {
    const e = Math.min(a.exp, b.exp);
    return [a.unscaled * 10n ** BigInt(a.exp - e), b.unscaled * 10n ** BigInt(b.exp - e), e];
  }
  cmp(o: QuantityValue): number {
    const [x, y] = QuantityValue.align(this, o);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  add(o: QuantityValue): QuantityValue {
    const [x, y, e] = QuantityValue.align(this, o);
    return new QuantityValue(x + y, e, this.unscaled === 0n && this.exp === 0 ? o.format : this.format);
  }
  neg(): QuantityValue {
    return new QuantityValue(-this.unscaled, this.exp, this.format);
  }

  /** Integer value when whole, else undefined. */
  asBigInt(): bigint | undefined {
    if (this.exp >= 0) return this.unscaled * 10n ** BigInt(this.exp);
    const div = 10n ** BigInt(-this.exp);
    return this.unscaled % div === 0n ? this.unscaled / div : undefined;
  }
  asApproximateFloat(): number {
    return Number(this.unscaled) * 10 ** this.exp;
  }

  /** The canonical string form. */
  toString(): string {
    if (this.unscaled === 0n) return '0';
    if (this.format === 'BinarySI') {
      const whole = this.asBigInt();
      const abs = whole !== undefined && whole < 0n ? -whole : whole;
      if (whole !== undefined && abs! >= 1024n) {
        let n = abs!;
        let p = 0;
        while (p < 60 && n % 1024n === 0n) {
          n /= 1024n;
          p += 10;
        }
        const suffix = Object.entries(BINARY).find(([, v]) => v === p)?.[0] ?? '';
        return `${whole < 0n ? '-' : ''}${n}${suffix}`;
      }
      return this.decimalString('DecimalSI');
    }
    return this.decimalString(this.format);
  }

  private decimalString(format: QuantityFormat): string {
    let u = this.unscaled;
    let e = this.exp;
    while (u % 10n === 0n && u !== 0n) {
      u /= 10n;
      e++;
    }
    // Largest multiple of three not above e.
    let e3 = Math.floor(e / 3) * 3;
    if (format === 'DecimalSI') {
      if (e3 > 18) e3 = 18;
      if (e3 < -9) e3 = -9;
    }
    const mant = u * 10n ** BigInt(e - e3);
    if (format === 'DecimalExponent') return e3 === 0 ? `${mant}` : `${mant}e${e3}`;
    return `${mant}${DECIMAL_SUFFIX[e3]}`;
  }
}
