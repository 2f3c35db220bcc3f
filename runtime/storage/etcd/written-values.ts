// The JSON of values this server wrote lately, by key and revision: a write
// answers with its value as a read gives it (decoded from the bytes stored,
// value-codec.ts), and the watch event of that write, moments later, carries
// the same bytes at the same revision (and an update's event its previous
// value, written here too): the text is taken from here instead of decoding
// the protobuf again. A bounded first-in first-out memory; a value another
// server wrote is decoded as before.

/** Writes remembered at most (events arrive within moments of their write). */
const WRITTEN_MAX = 1024;

export class WrittenValues {
  private byKey = new Map<string, string>();

  constructor(private readonly max = WRITTEN_MAX) {}

  remember(key: string, revision: number, json: string): void {
    const k = `${revision}\0${key}`;
    this.byKey.delete(k);
    this.byKey.set(k, json);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value!);
  }

  /** The JSON written at key and revision, when this server wrote it lately. */
  lookup(key: string, revision: number): string | undefined {
    return this.byKey.get(`${revision}\0${key}`);
  }
}
