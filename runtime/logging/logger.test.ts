// Tests of the server's log: klog text lines and JSON objects, verbosity,
// structured and plain messages, errors, and the --logging-format check.
import { describe, expect, it } from 'vitest';
import { Duration, Logger, LoggingFormatError, loggingFormat, type LoggingFormat } from './logger.ts';

const fixed = new Date(2026, 10, 24, 21, 0, 0, 123);

function capture(format: LoggingFormat, verbosity = 0): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = new Logger({ format, verbosity, write: (l) => lines.push(l), now: () => fixed, pid: 4242 });
  return { log, lines };
}

describe('Logger', () => {
  it('writes klog text lines: header, caller, quoted message, key/value pairs', () => {
    const { log, lines } = capture('text', 3);
    log.infoS(3, 'HTTP', 'verb', 'GET', 'URI', '/api/v1/pods?limit=1', 'latency', new Duration(1_500_000), 'resp', 200, 'ok', true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^I1124 21:00:00\.123000 {4}4242 logger\.test\.ts:\d+\] "HTTP" verb="GET" URI="\/api\/v1\/pods\?limit=1" latency="1\.5ms" resp=200 ok=true\n$/);
  });

  it('writes plain messages as they are, warnings with W', () => {
    const { log, lines } = capture('text');
    log.info('stopped listening; waiting for "1" request(s)');
    log.warning('watch ended');
    expect(lines[0]).toMatch(/^I1124 21:00:00\.123000 {4}4242 logger\.test\.ts:\d+\] stopped listening; waiting for "1" request\(s\)\n$/);
    expect(lines[1]).toMatch(/^W1124 .*\] watch ended\n$/);
  });

  it('writes errors at any verbosity with err', () => {
    const { log, lines } = capture('text');
    log.errorS(new Error('boom'), 'Internal error', 'audit-ID', 'a-1');
    expect(lines[0]).toMatch(/^E1124 .* logger\.test\.ts:\d+\] "Internal error" err="boom" audit-ID="a-1"\n$/);
  });

  it('writes JSON objects as the JSON logger: ts, caller, msg, v, then the pairs', () => {
    const { log, lines } = capture('json', 3);
    log.infoS(3, 'HTTP', 'verb', 'GET', 'latency', new Duration(250_000), 'resp', 200);
    log.info('plain');
    log.errorS(new Error('boom'), 'Internal error', 'audit-ID', 'a-1');
    const [http, plain, error] = lines.map((l) => JSON.parse(l));
    expect(Object.keys(http)).toEqual(['ts', 'caller', 'msg', 'v', 'verb', 'latency', 'resp']);
    expect(http).toMatchObject({ ts: fixed.getTime(), msg: 'HTTP', v: 3, verb: 'GET', latency: '250µs', resp: 200 });
    expect(http.caller).toMatch(/^logger\.test\.ts:\d+$/);
    expect(plain).toMatchObject({ msg: 'plain', v: 0 });
    expect(error).toMatchObject({ msg: 'Internal error', err: 'boom', 'audit-ID': 'a-1' });
    expect(error).not.toHaveProperty('v');
  });

  it.each([
    [0, 0, true],
    [0, 3, false],
    [3, 3, true],
    [5, 3, true],
    [2, 3, false],
  ])('-v=%d writes level %d: %s', (verbosity, level, written) => {
    const { log, lines } = capture('json', verbosity);
    log.infoS(level, 'm');
    expect(lines.length === 1).toBe(written);
    expect(log.enabled(level)).toBe(written);
  });

  it.each([
    [undefined, 'text'],
    ['', 'text'],
    ['text', 'text'],
    ['json', 'json'],
  ])('--logging-format=%s is %s', (value, want) => {
    expect(loggingFormat(value)).toBe(want);
  });

  it('refuses another --logging-format', () => {
    expect(() => loggingFormat('xml')).toThrow(LoggingFormatError);
    expect(() => loggingFormat('xml')).toThrow('format: Invalid value: "xml": Unsupported log format');
  });
});
