import { describe, expect, it } from 'vitest';
import { generateJobSelector, generatedSelectorErrors, jobUpdateErrors } from './job.ts';

const job = (spec: Record<string, any> = {}) => ({ metadata: { name: 'pi', uid: 'u-1' }, spec: { template: { spec: {} }, ...spec } });

describe('generated Job selector', () => {
  it('adds labels and selector, keeping the user labels', () => {
    const j: any = job({ template: { metadata: { labels: { app: 'x' } }, spec: {} } });
    generateJobSelector(j);
    expect(j.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' } });
    expect(j.spec.template.metadata.labels).toEqual({ app: 'x', 'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'u-1', 'batch.kubernetes.io/controller-uid': 'u-1' });
    expect(generatedSelectorErrors(j)).toEqual([]);
  });
  it('leaves a manual selector alone', () => {
    const j: any = job({ manualSelector: true, selector: { matchLabels: { a: 'b' } } });
    generateJobSelector(j);
    expect(j.spec.selector).toEqual({ matchLabels: { a: 'b' } });
    expect(generatedSelectorErrors(j)).toEqual([]);
  });
  it.each([
    [
      'wrong uid label',
      { 'batch.kubernetes.io/controller-uid': 'other', 'batch.kubernetes.io/job-name': 'pi' },
      { 'batch.kubernetes.io/controller-uid': 'u-1' },
      ['spec.template.metadata.labels[batch.kubernetes.io/controller-uid]: Invalid value: "other": must be \'u-1\''],
    ],
    [
      'missing job-name label',
      { 'batch.kubernetes.io/controller-uid': 'u-1' },
      { 'batch.kubernetes.io/controller-uid': 'u-1' },
      ["spec.template.metadata.labels[batch.kubernetes.io/job-name]: Required value: must be 'pi'"],
    ],
    [
      'selector not generated',
      { 'batch.kubernetes.io/controller-uid': 'u-1', 'batch.kubernetes.io/job-name': 'pi' },
      { a: 'b' },
      ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated'],
    ],
  ])('%s', (_n, labels, matchLabels, want) => {
    const j = job({ selector: { matchLabels }, template: { metadata: { labels }, spec: {} } });
    expect(generatedSelectorErrors(j).map(String)).toEqual(want);
  });
});

describe('Job updates', () => {
  it.each([
    ['completions', { completions: 1 }, { completions: 2 }, ['spec.completions: Invalid value: 2: field is immutable']],
    ['elastic indexed completions', { completionMode: 'Indexed', completions: 2, parallelism: 2 }, { completionMode: 'Indexed', completions: 4, parallelism: 4 }, []],
    ['completionMode', { completionMode: 'NonIndexed' }, { completionMode: 'Indexed' }, ['spec.completionMode: Invalid value: "Indexed": field is immutable']],
    ['parallelism may change', { parallelism: 1 }, { parallelism: 5 }, []],
  ])('%s', (_n, before, after, want) => {
    expect(jobUpdateErrors(job(after), job(before)).map(String)).toEqual(want);
  });
});
