// Table-driven tests of the label selector parser: matching, canonical form,
// and the upstream error texts.
import { describe, expect, it } from 'vitest';
import { parseLabelSelector, SelectorError } from './labels.ts';

const L = { app: 'web', tier: 'front', n: '5', empty: '' };

describe('parseLabelSelector matching', () => {
  const cases: [string, boolean, string][] = [
    ['', true, ''],
    ['app=web', true, 'app=web'],
    ['app==web', true, 'app==web'],
    ['app=db', false, 'app=db'],
    ['app!=db', true, 'app!=db'],
    ['missing!=x', true, 'missing!=x'],
    ['app in (db,web)', true, 'app in (db,web)'],
    ['app in (web, db)', true, 'app in (db,web)'],
    ['app notin (web)', false, 'app notin (web)'],
    ['missing notin (web)', true, 'missing notin (web)'],
    ['app', true, 'app'],
    ['!app', false, '!app'],
    ['!missing', true, '!missing'],
    ['tier=front,app=web', true, 'app=web,tier=front'],
    ['tier=front, app=db', false, 'app=db,tier=front'],
    ['empty=', true, 'empty='],
    ['empty in ()', true, 'empty in ()'],
    ['n>4', true, 'n>4'],
    ['n<5', false, 'n<5'],
    ['app>1', false, 'app>1'],
    ['x in (in,notin)', false, 'x in (in,notin)'],
    ['example.com/role=a', false, 'example.com/role=a'],
    ['  app  =  web  ', true, 'app=web'],
  ];
  for (const [sel, want, canon] of cases) {
    it(`${JSON.stringify(sel)} -> ${want}`, () => {
      const s = parseLabelSelector(sel);
      expect(s.matches(L)).toBe(want);
      expect(s.toString()).toBe(canon);
      expect(s.empty()).toBe(sel.trim() === '');
    });
  }
});

const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('parseLabelSelector errors', () => {
  const cases: [string, string][] = [
    ['app=web x', "found 'x', expected: ',' or 'end of string'"],
    ['app=web,', "found '', expected: identifier after ','"],
    [',app', "found ',', expected: !, identifier, or 'end of string'"],
    ['app in web', "unable to parse requirement: found 'web' expected: '('"],
    ['app in (web', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['app in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['app = = web', "unable to parse requirement: found '=', expected: identifier"],
    ['app x', "unable to parse requirement: found 'x', expected: in, notin, =, ==, !=, gt, lt"],
    ['!=a', "unable to parse requirement: found '!=', expected: !, identifier, or 'end of string'".replace('unable to parse requirement: ', '')],
    ['!app=x', "found '=', expected: ',' or 'end of string'"],
    ['app=we$b', `unable to parse requirement: values[0][app]: Invalid value: "we$b": ${VALUE_RULE}`],
    ['ap$p=web', `unable to parse requirement: <nil>: Invalid value: "ap$p": ${NAME_RULE}`],
    ['/app', 'unable to parse requirement: <nil>: Invalid value: "/app": prefix part must be non-empty'],
    ['n>x', `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`],
  ];
  for (const [sel, msg] of cases) {
    it(JSON.stringify(sel), () => {
      let err: unknown;
      try {
        parseLabelSelector(sel);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SelectorError);
      expect((err as Error).message).toBe(msg);
    });
  }
});
