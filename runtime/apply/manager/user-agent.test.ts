// Tests of the manager name taken from a User-Agent.
import { describe, expect, it } from 'vitest';
import { managerFromUserAgent } from './user-agent.ts';

describe('managerFromUserAgent', () => {
  it.each([
    ['kubectl/v1.31.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['kube-controller-manager/v1.31.0 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:deployment-controller', 'kube-controller-manager'],
    ['curl', 'curl'],
    ['', ''],
    ['my tool\u0007\n/1.0', 'my tool'],
  ])('%j -> %j', (ua, want) => expect(managerFromUserAgent(ua)).toBe(want));
});
