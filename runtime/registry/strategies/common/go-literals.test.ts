import { describe, expect, it } from 'vitest';
import { formatValue } from '../../../api/field-errors.ts';
import { goIntOrString, goLabelSelector } from './go-literals.ts';

describe('Go literals', () => {
  it.each([
    ['match labels', goLabelSelector({ matchLabels: { b: '2', a: '1' } }), 'v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "b":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}'],
    ['empty selector', goLabelSelector({}), 'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}'],
    ['expressions', goLabelSelector({ matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }, { key: 'e', operator: 'Exists' }] }),
      'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"In", Values:[]string{"v"}}, v1.LabelSelectorRequirement{Key:"e", Operator:"Exists", Values:[]string(nil)}}}'],
    ['missing selector', goLabelSelector(undefined), '"null"'],
    ['int', goIntOrString(0), 'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}'],
    ['percent', goIntOrString('150%'), 'intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}'],
  ])('%s', (_n, v, want) => {
    expect(formatValue(v)).toBe(want);
  });
});
