// Validation of Mutating/ValidatingWebhookConfiguration with upstream's
// texts: one row per rule, each a configuration with a single change
// from a valid one, and the relaxed checks of an update.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Obj } from '../../../storage/interface.ts';
import { loadMatchConditionsCompiler } from './match-conditions.ts';
import { updateOptions, webhookConfigurationErrors } from './webhook-configuration.ts';

beforeAll(loadMatchConditionsCompiler);

const hook = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'a.example.com',
  clientConfig: { url: 'https://hook.example.com/x' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});
const config = (...webhooks: Record<string, unknown>[]): Obj => ({ metadata: { name: 'c' }, webhooks });
const texts = (obj: Obj, mutating = true) => webhookConfigurationErrors(obj, mutating).map((e) => e.toString());

describe('webhookConfigurationErrors', () => {
  it.each<[string, Obj, string[]]>([
    ['a valid configuration', config(hook()), []],
    ['a name with two segments', config(hook({ name: 'a.com' })), ['webhooks[0].name: Invalid value: "a.com": should be a domain with at least three segments separated by dots']],
    ['no name', config(hook({ name: '' })), ['webhooks[0].name: Required value']],
    ['a duplicate name', config(hook(), hook()), ['webhooks[1].name: Duplicate value: "a.example.com"']],
    ['no sideEffects', config(hook({ sideEffects: undefined })), ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
    ['sideEffects Some', config(hook({ sideEffects: 'Some' })), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']],
    ['no admissionReviewVersions', config(hook({ admissionReviewVersions: [] })), ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
    [
      'only unknown review versions',
      config(hook({ admissionReviewVersions: ['v2'] })),
      ['webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1'],
    ],
    ['a timeout of 31', config(hook({ timeoutSeconds: 31 })), ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']],
    ['a timeout of 0', config(hook({ timeoutSeconds: 0 })), ['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']],
    [
      'both url and service',
      config(hook({ clientConfig: { url: 'https://a/', service: { namespace: 'n', name: 's' } } })),
      ['webhooks[0].clientConfig: Required value: exactly one of url or service is required'],
    ],
    ['neither url nor service', config(hook({ clientConfig: {} })), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
    [
      'an http url',
      config(hook({ clientConfig: { url: 'http://hook.example.com/' } })),
      ['webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]'],
    ],
    ['a url with a query', config(hook({ clientConfig: { url: 'https://h/x?a=b' } })), ['webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL']],
    ['a url with user info', config(hook({ clientConfig: { url: 'https://u@h/x' } })), ['webhooks[0].clientConfig.url: Invalid value: "u": user information is not permitted in the URL']],
    ['a url with a fragment', config(hook({ clientConfig: { url: 'https://h/x#f' } })), ['webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL']],
    ['a service without a namespace', config(hook({ clientConfig: { service: { name: 's' } } })), ['webhooks[0].clientConfig.service.namespace: Required value: service namespace is required']],
    [
      'a service path with an empty segment',
      config(hook({ clientConfig: { service: { namespace: 'n', name: 's', path: '/a//b' } } })),
      ['webhooks[0].clientConfig.service.path: Invalid value: "/a//b": segment[1] may not be empty'],
    ],
    ['an unknown failurePolicy', config(hook({ failurePolicy: 'Maybe' })), ['webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"']],
    ['an unknown matchPolicy', config(hook({ matchPolicy: 'Loose' })), ['webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']],
    ['an unknown reinvocationPolicy', config(hook({ reinvocationPolicy: 'Always' })), ['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']],
    [
      'an unknown operation',
      config(hook({ rules: [{ operations: ['PATCH'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })),
      ['webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
    ],
    [
      "'*' with other operations",
      config(hook({ rules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })),
      ['webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations'],
    ],
    ['no resources', config(hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: [] }] })), ['webhooks[0].rules[0].resources: Required value']],
    [
      "'*/*' with other resources",
      config(hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] })),
      ['webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources'],
    ],
    [
      'an unknown scope',
      config(hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Everywhere' }] })),
      ['webhooks[0].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"'],
    ],
    [
      'a bad selector operator',
      config(hook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } })),
      ['webhooks[0].objectSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
    ],
    [
      'a match condition that does not compile',
      config(hook({ matchConditions: [{ name: 'c', expression: 'object.metadata.name ==' }] })),
      [expect.stringMatching(/^webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "object\.metadata\.name ==": compilation failed: /) as unknown as string],
    ],
    [
      'a match condition that is not a bool',
      config(hook({ matchConditions: [{ name: 'c', expression: 'request.name' }] })),
      [expect.stringMatching(/^webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "request\.name": /) as unknown as string],
    ],
    [
      'duplicate match condition names',
      config(
        hook({
          matchConditions: [
            { name: 'c', expression: 'true' },
            { name: 'c', expression: 'true' },
          ],
        }),
      ),
      ['webhooks[0].matchConditions[1].name: Duplicate value: "c"'],
    ],
    [
      '65 match conditions',
      config(hook({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) })),
      ['webhooks[0].matchConditions: Too many: 65: must have at most 64 items'],
    ],
  ])('%s', (_name, obj, want) => {
    expect(texts(obj)).toEqual(want);
  });

  it('checks reinvocationPolicy only for mutating webhooks', () => {
    expect(texts(config(hook({ reinvocationPolicy: 'Always' })), false)).toEqual([]);
  });

  it('lets an update keep what the stored object already had (side effects, review versions, duplicate names)', () => {
    const old = config(hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }), hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }));
    const next = structuredClone(old);
    expect(webhookConfigurationErrors(next, true, updateOptions(next, old))).toEqual([]);
    expect(webhookConfigurationErrors(next, true).length).toBeGreaterThan(0);
  });
});
