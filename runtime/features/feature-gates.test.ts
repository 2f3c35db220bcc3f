// --feature-gates as component-base reads it: parsing, 1.31's defaults by
// stage, AllAlpha/AllBeta, and upstream's refusals and start-up warnings;
// each FeatureGates is its own (two in one process do not share settings).

import { describe, expect, it } from 'vitest';
import { FeatureGateError, FeatureGates, featureGatesFromFlag, parseFeatureGateFlag } from './feature-gates.ts';
import { GATES } from './gates.ts';

describe('parseFeatureGateFlag', () => {
  it('reads Name=bool pairs with Go ParseBool, trimmed, a later pair winning', () => {
    expect([...parseFeatureGateFlag(' WatchList = true,,KMSv1=0,WatchList=F')]).toEqual([
      ['WatchList', false],
      ['KMSv1', false],
    ]);
    expect(parseFeatureGateFlag(undefined).size).toBe(0);
  });

  it.each([
    ['WatchList', 'missing bool value for WatchList'],
    ['WatchList=maybe', 'invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['WatchList=', 'invalid value of WatchList=, err: strconv.ParseBool: parsing "": invalid syntax'],
  ])('%s: %s', (flag, message) => {
    expect(() => parseFeatureGateFlag(flag)).toThrow(new FeatureGateError(message));
  });
});

describe('FeatureGates', () => {
  it.each([
    // name, stage and default as 1.31 has them
    ['WatchList', 'ALPHA', false],
    ['AnonymousAuthConfigurableEndpoints', 'ALPHA', false],
    ['AuthorizeNodeWithSelectors', 'ALPHA', false],
    ['AuthorizeWithSelectors', 'ALPHA', false],
    ['ConsistentListFromCache', 'BETA', true],
    ['CustomResourceFieldSelectors', 'BETA', true],
    ['StructuredAuthenticationConfiguration', 'BETA', true],
    ['StructuredAuthorizationConfiguration', 'BETA', true],
    ['SeparateCacheWatchRPC', 'BETA', true],
    ['RetryGenerateName', 'BETA', true],
    ['StrictCostEnforcementForVAP', 'BETA', false],
    ['ValidatingAdmissionPolicy', 'GA', true],
    ['KMSv1', 'DEPRECATED', false],
  ] as const)('%s is %s, default %s', (name, stage, on) => {
    expect(GATES[name].stage).toBe(stage);
    expect(new FeatureGates().enabled(name)).toBe(on);
  });

  it('alpha gates are off, GA gates on and locked, by default', () => {
    const g = new FeatureGates();
    for (const [name, spec] of Object.entries(GATES)) {
      if (spec.stage === 'ALPHA') expect(g.enabled(name)).toBe(false);
      if (spec.stage === 'GA') {
        expect(spec.locked).toBe(true);
        expect(g.enabled(name)).toBe(true);
      }
    }
  });

  it.each([
    ['Bogus=true', 'unrecognized feature gate: Bogus'],
    ['ValidatingAdmissionPolicy=false', 'cannot set feature gate ValidatingAdmissionPolicy to false, feature is locked to true'],
    ['WatchList=true,APIListChunking=false', 'cannot set feature gate APIListChunking to false, feature is locked to true'],
  ])('refuses %s: %s', (flag, message) => {
    expect(() => featureGatesFromFlag(flag)).toThrow(new FeatureGateError(message));
  });

  it.each([
    ['KMSv1=true', ['Setting deprecated feature gate KMSv1=true. It will be removed in a future release.']],
    ['ValidatingAdmissionPolicy=true', ['Setting GA feature gate ValidatingAdmissionPolicy=true. It will be removed in a future release.']],
    ['WatchList=true,CustomResourceFieldSelectors=false', []],
  ])('%s warns %j', (flag, warnings) => {
    expect(featureGatesFromFlag(flag).warnings).toEqual(warnings);
  });

  it('sets gates by name; AllAlpha and AllBeta set the unnamed gates of their stage, never locked ones', () => {
    const g = featureGatesFromFlag('AllAlpha=true,AuthorizeWithSelectors=false,AllBeta=false,ConsistentListFromCache=true');
    expect(g.enabled('WatchList')).toBe(true);
    expect(g.enabled('AuthorizeWithSelectors')).toBe(false);
    expect(g.enabled('CustomResourceFieldSelectors')).toBe(false);
    expect(g.enabled('ConsistentListFromCache')).toBe(true);
    expect(g.enabled('ValidatingAdmissionPolicy')).toBe(true);
    expect(g.enabled('KMSv1')).toBe(false);
  });

  it('keeps each instance to itself', () => {
    const on = new FeatureGates({ WatchList: true });
    const off = new FeatureGates();
    expect([on.enabled('WatchList'), off.enabled('WatchList')]).toEqual([true, false]);
  });

  it('asking an unknown name is a programming error', () => {
    expect(() => new FeatureGates().enabled('NoSuchGate')).toThrow('unknown feature gate NoSuchGate');
  });
});
