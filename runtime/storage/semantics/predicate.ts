// Applying a Predicate (label and field selectors) to objects, and turning a
// change of an object into the watch event a filtered watcher must see
// (an object that stops matching is DELETED for it, one that starts matching
// is ADDED). Pure functions shared by kvstore and cacher.
import type { Obj, ObjectAttrs, Predicate, WatchEventType } from '../interface.ts';

export function predicateEmpty(p: Predicate | undefined): boolean {
  return !p || ((!p.label || p.label.empty()) && (!p.field || p.field.empty()));
}

export function matchesAttrs(p: Predicate | undefined, attrs: ObjectAttrs): boolean {
  if (!p) return true;
  if (p.label && !p.label.empty() && !p.label.matches(attrs.labels)) return false;
  if (p.field && !p.field.empty() && !p.field.matches(attrs.fields)) return false;
  return true;
}

export function matchesObject(p: Predicate | undefined, obj: Obj): boolean {
  if (predicateEmpty(p)) return true;
  return matchesAttrs(p, p!.attrs(obj));
}

/**
 * The event a filtered watcher sees for a change: `prev` matched / `cur`
 * matched decide between ADDED, MODIFIED, DELETED or nothing. `useOld` tells
 * the caller to send the previous object (for DELETED).
 */
export function transition(kind: 'create' | 'update' | 'delete', prevMatches: boolean, curMatches: boolean): { type: WatchEventType; useOld: boolean } | null {
  if (kind === 'create') return curMatches ? { type: 'ADDED', useOld: false } : null;
  if (kind === 'delete') return prevMatches ? { type: 'DELETED', useOld: true } : null;
  if (curMatches && prevMatches) return { type: 'MODIFIED', useOld: false };
  if (curMatches) return { type: 'ADDED', useOld: false };
  if (prevMatches) return { type: 'DELETED', useOld: true };
  return null;
}

/** The Status object of an ERROR watch event. */
export function statusObject(code: number, reason: string, message: string): Obj {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}
