import { describe, expect, it } from 'vitest';
import { calculateNames, namesInUse, waitsForNames } from './names.ts';
import type { Obj } from '../../storage/interface.ts';

const crd = (name: string, names: Obj, accepted?: Obj, conditions?: Obj[]): Obj => ({
  metadata: { name },
  spec: { group: 'example.com', names },
  status: { ...(accepted ? { acceptedNames: accepted } : {}), ...(conditions ? { conditions } : {}) },
});

const widgets = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] };
const holder = crd('widgets.example.com', widgets, widgets);

describe('calculateNames', () => {
  it.each<{ name: string; requested: Obj; accepted?: Obj; others: Obj[]; reason: string; message: string; acceptedNames: Obj }>([
    {
      name: 'fresh names are accepted',
      requested: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList', categories: ['all'] },
      others: [holder],
      reason: 'NoConflicts',
      message: 'no conflicts found',
      acceptedNames: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList', categories: ['all'] },
    },
    {
      name: 'a plural another CRD accepted',
      requested: { plural: 'widgets', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
      others: [holder],
      reason: 'PluralConflict',
      message: '"widgets" is already in use',
      // plural and kind are always written (no omitempty upstream): empty until accepted
      acceptedNames: { plural: '', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    },
    {
      name: 'a singular that is another CRD short name',
      requested: { plural: 'gizmos', singular: 'wd', kind: 'Gizmo', listKind: 'GizmoList' },
      others: [holder],
      reason: 'SingularConflict',
      message: '"wd" is already in use',
      acceptedNames: { plural: 'gizmos', kind: 'Gizmo', listKind: 'GizmoList' },
    },
    {
      name: 'short names in use, listed together',
      requested: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList', shortNames: ['wd', 'widget', 'gz'] },
      others: [holder],
      reason: 'ShortNamesConflict',
      message: '["wd" is already in use, "widget" is already in use]',
      acceptedNames: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    },
    {
      name: 'a kind in use',
      requested: { plural: 'gizmos', singular: 'gizmo', kind: 'Widget', listKind: 'GizmoList' },
      others: [holder],
      reason: 'KindConflict',
      message: '"Widget" is already in use',
      acceptedNames: { plural: 'gizmos', singular: 'gizmo', kind: '', listKind: 'GizmoList' },
    },
    {
      name: 'the names it already holds are its own',
      requested: { ...widgets, shortNames: ['wd', 'wdg'] },
      accepted: widgets,
      others: [holder],
      reason: 'NoConflicts',
      message: 'no conflicts found',
      acceptedNames: { ...widgets, shortNames: ['wd', 'wdg'] },
    },
    {
      name: 'CRDs of another group do not count',
      requested: widgets,
      others: [{ ...holder, spec: { ...holder.spec, group: 'other.com' } }],
      reason: 'NoConflicts',
      message: 'no conflicts found',
      acceptedNames: widgets,
    },
  ])('$name', ({ requested, accepted, others, reason, message, acceptedNames }) => {
    const c = crd('x.example.com', requested, accepted);
    const got = calculateNames(c, namesInUse([...others, c], 'example.com'));
    expect(got.namesAccepted).toEqual({ type: 'NamesAccepted', status: reason === 'NoConflicts' ? 'True' : 'False', reason, message });
    expect(got.acceptedNames).toEqual(acceptedNames);
  });

  it('counts the names of built-in resources of the group', () => {
    const used = namesInUse([], 'apps', [{ resource: 'deployments', singular: 'deployment', shortNames: ['deploy'], kind: 'Deployment', listKind: 'DeploymentList' }]);
    const got = calculateNames(crd('deploy.apps', { plural: 'deploy', singular: 'd2', kind: 'D2', listKind: 'D2List' }), used);
    expect(got.namesAccepted).toMatchObject({ status: 'False', reason: 'PluralConflict', message: '"deploy" is already in use' });
  });

  it.each<[string, Obj[] | undefined, string, Obj]>([
    ['not accepted, no condition yet', undefined, 'widgets', { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }],
    ['accepted, not yet established', undefined, 'fresh', { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' }],
    [
      'established stays established',
      [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }],
      'widgets',
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ],
  ])('Established: %s', (_name, conditions, plural, want) => {
    const c = crd('x.example.com', { plural, singular: 'x', kind: 'X', listKind: 'XList' }, undefined, conditions);
    expect(calculateNames(c, namesInUse([holder], 'example.com')).established).toEqual(want);
  });
});

describe('waitsForNames', () => {
  const accepted = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const conflict = { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"widgets" is already in use' };
  it.each<[string, Obj, boolean]>([
    ['every name accepted', crd('widgets.example.com', widgets, widgets, [accepted]), false],
    ['a plural in conflict', crd('widgets.example.com', widgets, { ...widgets, plural: '' }, [conflict]), true],
    ['a new short name not accepted yet', crd('widgets.example.com', { ...widgets, shortNames: ['wd', 'w'] }, widgets, [accepted]), true],
    ['names not looked at yet', crd('widgets.example.com', widgets), true],
    ['accepted names without the condition', crd('widgets.example.com', widgets, widgets), true],
    ['being deleted', { ...crd('widgets.example.com', widgets, { ...widgets, plural: '' }, [conflict]), metadata: { name: 'widgets.example.com', deletionTimestamp: '2026-01-01T00:00:00Z' } }, false],
  ])('%s: %s', (_name, obj, want) => {
    expect(waitsForNames(obj)).toBe(want);
  });
});
