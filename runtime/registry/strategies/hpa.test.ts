import { describe, expect, it } from 'vitest';
import { metricTargetErrors } from './hpa.ts';

describe('metricTargetErrors', () => {
  it.each([
    ['Utilization', { type: 'Utilization', averageUtilization: 50 }, []],
    ['AverageValue', { type: 'AverageValue', averageValue: '100m' }, []],
    ['Value', { type: 'Value', value: '1' }, []],
    ['type missing', {}, ['t.type: Required value: must specify a metric target type', 't.type: Invalid value: "": must be either Utilization, Value, or AverageValue']],
    ['type unknown', { type: 'Percent' }, ['t.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue']],
    ['value zero', { type: 'Value', value: '0' }, ['t.value: Invalid value: "0": must be positive']],
    ['averageValue negative', { type: 'AverageValue', averageValue: '-1' }, ['t.averageValue: Invalid value: "-1": must be positive']],
    ['averageUtilization 0', { type: 'Utilization', averageUtilization: 0 }, ['t.averageUtilization: Invalid value: 0: must be greater than 0']],
  ])('%s', (_name, t, want) => {
    expect(metricTargetErrors('t', t).map((e) => e.toString())).toEqual(want);
  });
});
