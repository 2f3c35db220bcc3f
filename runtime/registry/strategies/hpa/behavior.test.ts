import { describe, expect, it } from 'vitest';
import { behaviorErrors } from './behavior.ts';

const pods = { type: 'Pods', value: 4, periodSeconds: 15 };
const up = (rules: object) => behaviorErrors({ scaleUp: rules }).map(String);
const P = 'spec.behavior.scaleUp';

describe('behaviorErrors', () => {
  it.each<[string, object, string[]]>([
    ['a policy', { policies: [pods] }, []],
    ['window 0 and 3600, selectPolicy Disabled', { stabilizationWindowSeconds: 3600, selectPolicy: 'Disabled', policies: [pods] }, []],
    ['window negative', { stabilizationWindowSeconds: -1, policies: [pods] }, [`${P}.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero`]],
    ['window above 3600', { stabilizationWindowSeconds: 3601, policies: [pods] }, [`${P}.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600`]],
    ['selectPolicy unknown', { selectPolicy: 'Avg', policies: [pods] }, [`${P}.selectPolicy: Unsupported value: "Avg": supported values: "Disabled", "Max", "Min"`]],
    ['no policies', { policies: [] }, [`${P}.policies: Required value: must specify at least one Policy`]],
    ['policy type unknown', { policies: [{ ...pods, type: 'Nodes' }] }, [`${P}.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"`]],
    ['policy value 0', { policies: [pods, { ...pods, type: 'Percent', value: 0 }] }, [`${P}.policies[1].value: Invalid value: 0: must be greater than zero`]],
    ['policy period 0', { policies: [{ ...pods, periodSeconds: 0 }] }, [`${P}.policies[0].periodSeconds: Invalid value: 0: must be greater than zero`]],
    ['policy period 1800', { policies: [{ ...pods, periodSeconds: 1800 }] }, []],
    ['policy period above 1800', { policies: [{ ...pods, periodSeconds: 1801 }] }, [`${P}.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800`]],
    [
      'policy fields absent (zero values)',
      { policies: [{}] },
      [
        `${P}.policies[0].type: Unsupported value: "": supported values: "Percent", "Pods"`,
        `${P}.policies[0].value: Invalid value: 0: must be greater than zero`,
        `${P}.policies[0].periodSeconds: Invalid value: 0: must be greater than zero`,
      ],
    ],
  ])('%s', (_name, rules, want) => {
    expect(up(rules)).toEqual(want);
  });

  it('checks scaleDown with its own path, and nothing without a behavior', () => {
    expect(behaviorErrors({ scaleDown: { policies: [] } }).map(String)).toEqual(['spec.behavior.scaleDown.policies: Required value: must specify at least one Policy']);
    expect(behaviorErrors(undefined)).toEqual([]);
    expect(behaviorErrors({})).toEqual([]);
  });
});
