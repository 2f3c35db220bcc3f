import { describe, expect, it } from 'vitest';
import { finalizerWarning, finalizerWarnings } from './finalizer-warnings.ts';

const md = (finalizers?: unknown) => ({ metadata: { name: 'x', finalizers } });

describe('finalizerWarnings', () => {
  it.each([
    ['no finalizers', md(undefined), undefined, []],
    ['domain-qualified', md(['example.com/cleanup']), undefined, []],
    ['standard names', md(['kubernetes', 'orphan', 'foregroundDeletion']), undefined, []],
    ['plain name', md(['cleanup']), undefined, [finalizerWarning('cleanup')]],
    ['dotted but no path', md(['cleanup.example.com']), undefined, [finalizerWarning('cleanup.example.com')]],
    ['repeated name warns once', md(['a', 'a']), undefined, [finalizerWarning('a')]],
    ['update: already there', md(['cleanup']), md(['cleanup']), []],
    ['update: newly added', md(['cleanup', 'more']), md(['cleanup']), [finalizerWarning('more')]],
  ])('%s', (_n, obj, old, want) => {
    expect(finalizerWarnings(obj, old)).toEqual(want);
  });

  it('upstream text', () => {
    expect(finalizerWarning('cleanup')).toBe('metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers');
  });
});
