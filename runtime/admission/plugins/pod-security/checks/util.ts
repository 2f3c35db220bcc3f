// Helpers shared by the Pod Security checks, worded as upstream's:
// containers visited init first, then regular, then ephemeral; names
// joined as `"a", "b"`; singular or plural by count; sets sorted as Go's
// sets.String lists them (byte order).

import type { Container, PodSpec } from './types.ts';

/** Every container of the spec: init containers, containers, ephemeral containers. */
export function containers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

export const nameOf = (c: Container): string => c.name ?? '';

/** `"a", "b"` (no escaping, as upstream's joinQuote); empty for none. */
export const joinQuote = (items: string[]): string => (items.length ? `"${items.join('", "')}"` : '');

export const pluralize = (singular: string, plural: string, count: number): string => (count === 1 ? singular : plural);

/** `container "a"` / `containers "a", "b"`. */
export const containersPhrase = (names: string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** The distinct values in byte order (Go's sets.String.List()). */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export const isWindowsPod = (spec: PodSpec): boolean => spec.os?.name === 'windows';
