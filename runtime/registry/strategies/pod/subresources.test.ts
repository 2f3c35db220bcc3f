// The fields an ephemeral container may not set, as Go's reflection sees
// them: unset means absent, or for the `resources` struct, empty.

import { describe, expect, it } from 'vitest';
import { ephemeralContainerErrors } from './subresources.ts';

const spec = (ec: Record<string, unknown>) => ({ containers: [{ name: 'c', image: 'x' }], ephemeralContainers: [{ name: 'e', image: 'busybox', ...ec }] });
const forbidden = (f: string) => `spec.ephemeralContainers[0].${f}: Forbidden: cannot be set for an Ephemeral Container`;

describe('ephemeralContainerErrors', () => {
  it.each([
    ['resources: {} (kubectl debug sends it)', { resources: {} }, []],
    ['resources with only null members', { resources: { limits: null } }, []],
    ['resources with an empty limits map', { resources: { limits: {} } }, [forbidden('resources')]],
    ['resources with requests', { resources: { requests: { cpu: '1' } } }, [forbidden('resources')]],
    ['ports: [] (a non-nil slice)', { ports: [] }, [forbidden('ports')]],
    ['lifecycle: {} (a non-nil pointer)', { lifecycle: {} }, [forbidden('lifecycle')]],
    ['null fields', { ports: null, lifecycle: null }, []],
  ])('%s', (_n, ec, want) => {
    expect(ephemeralContainerErrors(spec(ec)).map(String)).toEqual(want);
  });
});
