// Table tests of the URL library (isURL, url and its accessors).
import { describe, it, expect } from 'vitest';
import { run } from '../testing/run.ts';

describe('URL library', () => {
  it.each<[string, unknown]>([
    ["isURL('https://example.com:80/path?query=val#fragment')", true],
    ["isURL('/absolute-path')", true],
    ["isURL('example.com')", false],
    ["isURL('')", false],
    ["isURL('https://exa mple.com')", false],
    ["url('https://example.com:80/').getScheme()", 'https'],
    ["url('https://example.com:80/').getHost()", 'example.com:80'],
    ["url('https://example.com:80/').getHostname()", 'example.com'],
    ["url('https://example.com:80/').getPort()", '80'],
    ["url('https://example.com/').getPort()", ''],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('https://[::1]:80/').getPort()", '80'],
    ["url('https://[::1]/').getHost()", '[::1]'],
    ["url('https://example.com/path with spaces/').getEscapedPath()", undefined],
    ["url('https://example.com/a%20b').getEscapedPath()", '/a%20b'],
    ["url('/absolute-path').getHost()", ''],
    ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
    ["url('https://example.com/path?key=a').getQuery()['key'][0]", 'a'],
    ["url('https://example.com/').getQuery()", {}],
  ])('%s', (expr, want) => {
    if (want === undefined) {
      expect(() => run(expr)).toThrow();
      return;
    }
    expect(run(expr)).toEqual(want);
  });

  it('rejects strings that are not URLs', () => {
    expect(() => run("url('not a url')")).toThrow('URL parse error');
  });
});
