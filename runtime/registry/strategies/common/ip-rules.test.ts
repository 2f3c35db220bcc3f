import { describe, expect, it } from 'vitest';
import { portNameErrors, portNumOrNameErrors, specialIPErrors, validCIDRErrors, validIPErrors } from './ip-rules.ts';

describe('special IPs', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['127.1.2.3', 'loopback'],
    ['169.254.3.4', 'link-local range'],
    ['224.0.0.9', 'multicast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::5', 'link-local range'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('%s is refused (%s)', (ip, word) => {
    expect(specialIPErrors(ip).join()).toContain(word);
  });
  it.each(['10.0.0.1', '8.8.8.8', '224.0.1.1', 'fd00::1', '2001:db8::1'])('%s is fine', (ip) => {
    expect(specialIPErrors(ip)).toEqual([]);
  });
});

describe('IPs, CIDRs and ports', () => {
  it.each([
    ['1.2.3.4', 0],
    ['1.2.3', 1],
    ['::1', 0],
    ['x', 1],
  ])('validIPErrors(%s)', (v, count) => {
    expect(validIPErrors(v as string).length).toBe(count);
  });
  it.each([
    ['10.0.0.0/8', 0],
    ['10.0.0.0/33', 1],
    ['fd00::/64', 0],
    ['10.0.0.0', 1],
  ])('validCIDRErrors(%s)', (v, count) => {
    expect(validCIDRErrors(v as string).length).toBe(count);
  });
  it.each([
    ['http', []],
    ['a-very-long-port-name', ['must be no more than 15 characters']],
    ['Ab', ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
    ['a--b', ['must not contain consecutive hyphens']],
    ['-ab', ['must not begin or end with a hyphen']],
    ['123', ['must contain at least one letter (a-z)']],
  ])('portNameErrors(%s)', (name, msgs) => {
    expect(portNameErrors(name as string)).toEqual(msgs);
  });
  it.each([
    [80, 0],
    [0, 1],
    [65536, 1],
    ['web', 0],
    ['8080', 1],
  ])('portNumOrNameErrors(%j)', (v, count) => {
    expect(portNumOrNameErrors(v).length).toBe(count);
  });
});
