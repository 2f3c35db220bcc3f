import { describe, expect, it } from 'vitest';
import { GoValue } from './go-format.ts';
import { quantityGoValue } from './go-quantity.ts';

const lit = (value: string, scale: number, s: string, format: string) =>
  `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"${format}"}`;

describe('quantityGoValue', () => {
  it.each<[string, string]>([
    ['0', lit('0', 0, '0', 'DecimalSI')],
    ['-0', lit('0', 0, '', 'DecimalSI')],
    ['0.0', lit('0', -1, '', 'DecimalSI')],
    ['-1', lit('-1', 0, '-1', 'DecimalSI')],
    ['-100m', lit('-100', -3, '-100m', 'DecimalSI')],
    ['-1000m', lit('-1000', -3, '', 'DecimalSI')],
    ['-1.5', lit('-15', -1, '', 'DecimalSI')],
    ['-2k', lit('-2', 3, '-2k', 'DecimalSI')],
    ['-1Gi', lit('-1073741824', 0, '-1Gi', 'BinarySI')],
    ['0Mi', lit('0', 0, '', 'BinarySI')],
    ['-8Ki', lit('-8192', 0, '', 'BinarySI')],
    ['-1e3', lit('-1', 3, '-1e3', 'DecimalExponent')],
  ])('%s', (text, want) => {
    const v = quantityGoValue(text);
    expect(v).toBeInstanceOf(GoValue);
    expect((v as GoValue).text).toBe(want);
  });

  it.each(['-0.5Gi', '-0.0000000001', 'abc', ''])('%s: kept as text (an inf.Dec upstream, or no quantity)', (text) => {
    expect(quantityGoValue(text)).toBe(text);
  });
});
