import { describe, expect, it } from 'vitest';
import { evalPath } from './jsonpath.ts';
import { humanDuration } from './human-duration.ts';

describe('evalPath', () => {
  const obj = {
    spec: { type: 'ClusterIP', ports: [{ port: 80 }, { port: 443 }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'X', status: 'False' },
      ],
    },
  };
  it.each([
    ['.spec.type', ['ClusterIP']],
    ['{.spec.type}', ['ClusterIP']],
    ['.spec.ports[*].port', [80, 443]],
    ['.spec.ports[1].port', [443]],
    ['.spec.missing', []],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
  ])('%s', (path, want) => expect(evalPath(obj, path)).toEqual(want));
});

describe('humanDuration', () => {
  it.each([
    [-5000, '<invalid>'],
    [0, '0s'],
    [59_000, '59s'],
    [119_000, '119s'],
    [200_000, '3m20s'],
    [600_000, '10m'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [10 * 3600_000, '10h'],
    [50 * 3600_000, '2d2h'],
    [30 * 86400_000, '30d'],
    [800 * 86400_000, '2y70d'],
    [9 * 365 * 86400_000, '9y'],
  ])('%d ms', (ms, want) => expect(humanDuration(ms)).toBe(want));
});
