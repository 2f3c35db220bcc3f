// A set of field paths, stored as a tree the way structured-merge-diff does:
// each node has `members` (paths that end here) and `children` (paths that
// continue below an element). Set algebra returns new sets that may share
// unchanged subtrees, so a set must not be changed with `insert` once it has
// been combined with another. Boundary: no schema knowledge (see
// typed/named-fields.ts for the schema-aware helpers).
import { comparePE, type Path, type PathElement } from './element.ts';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (mutates; only for sets under construction). The empty path is ignored. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]);
    const last = path[path.length - 1];
    node.members.set(last.id, last);
  }

  /** The child set below pe, created when missing (mutates). */
  descend(pe: PathElement): FieldSet {
    let c = this.children.get(pe.id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.id, c);
    }
    return c.set;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) {
      const c = node.children.get(path[i].id);
      if (!c) return false;
      node = c.set;
    }
    return node.members.has(path[path.length - 1].id);
  }

  /** The subset of paths below pe (without pe itself). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? EMPTY;
  }

  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** Number of paths in the set. */
  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  union(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    if (this.empty()) return o;
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of o.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      out.children.set(id, oc ? { pe: c.pe, set: c.set.union(oc.set) } : c);
    }
    for (const [id, oc] of o.children) if (!this.children.has(id)) out.children.set(id, oc);
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc) continue;
      const s = c.set.intersection(oc.set);
      if (!s.empty()) out.children.set(id, { pe: c.pe, set: s });
    }
    return out;
  }

  /** Paths of this set that are not paths of o (exact paths; descendants of o's members stay). */
  difference(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc) {
        out.children.set(id, c);
        continue;
      }
      const s = c.set.difference(oc.set);
      if (!s.empty()) out.children.set(id, { pe: c.pe, set: s });
    }
    return out;
  }

  /** Like difference, and also drops every path below a member of o. */
  recursiveDifference(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      if (o.members.has(id)) continue;
      const oc = o.children.get(id);
      if (!oc) {
        out.children.set(id, c);
        continue;
      }
      const s = c.set.recursiveDifference(oc.set);
      if (!s.empty()) out.children.set(id, { pe: c.pe, set: s });
    }
    return out;
  }

  equals(o: FieldSet): boolean {
    if (this === o) return true;
    if (this.members.size !== o.members.size) return false;
    for (const id of this.members.keys()) if (!o.members.has(id)) return false;
    const mine = [...this.children.values()].filter((c) => !c.set.empty());
    const theirs = [...o.children.values()].filter((c) => !c.set.empty());
    if (mine.length !== theirs.length) return false;
    for (const c of mine) {
      const oc = o.children.get(c.pe.id);
      if (!oc || !c.set.equals(oc.set)) return false;
    }
    return true;
  }

  /** Visits every path: this node's members in order, then each child's paths in order. */
  iterate(fn: (path: Path) => void, prefix: Path = []): void {
    for (const pe of sortedPEs(this.members.values())) fn([...prefix, pe]);
    const kids = [...this.children.values()].sort((a, b) => comparePE(a.pe, b.pe));
    for (const c of kids) c.set.iterate(fn, [...prefix, c.pe]);
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }
}

export function sortedPEs(pes: Iterable<PathElement>): PathElement[] {
  return [...pes].sort(comparePE);
}

const EMPTY = new FieldSet();
