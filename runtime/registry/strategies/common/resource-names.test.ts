import { describe, expect, it } from 'vitest';
import { containerResourceNameErrors, resourceNameErrors } from './resource-names.ts';

const QN =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('resourceNameErrors', () => {
  it.each<[string, string[]]>([
    ['pods', []],
    ['requests.hugepages-2Mi', []],
    ['example.com/foo', []],
    ['widgets', ['n: Invalid value: "widgets": must be a standard resource type or fully qualified']],
    ['bad name', [`n: Invalid value: "bad name": ${QN}`]],
  ])('%s', (name, want) => {
    expect(resourceNameErrors('n', name).map(String)).toEqual(want);
  });
});

describe('containerResourceNameErrors', () => {
  it.each<[string, string[]]>([
    ['cpu', []],
    ['memory', []],
    ['ephemeral-storage', []],
    ['hugepages-1Gi', []],
    ['example.com/gpu', []],
    ['kubernetes.io/foo', []],
    ['pods', ['n: Invalid value: "pods": must be a standard resource for containers']],
    ['widgets', ['n: Invalid value: "widgets": must be a standard resource type or fully qualified', 'n: Invalid value: "widgets": must be a standard resource for containers']],
    ['requests.example.com/gpu', ['n: Invalid value: "requests.example.com/gpu": doesn\'t follow extended resource name standard']],
  ])('%s', (name, want) => {
    expect(containerResourceNameErrors('n', name).map(String)).toEqual(want);
  });
});
