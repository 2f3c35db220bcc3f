// Baseline for durable creates: raw better-sqlite3 in this one process,
// journal_mode=WAL, synchronous=FULL, one INSERT of one row per transaction
// (autocommit), for a fixed time. argv: database file, seconds, row bytes.
// Prints {"rows": n, "seconds": s} as one JSON line.
// Plain JavaScript, so it runs the same with or without a TypeScript loader.
import Database from 'better-sqlite3';

const [file, secondsArg, bytesArg] = process.argv.slice(2);
const seconds = Number(secondsArg);
const value = 'v'.repeat(Number(bytesArg));
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
const prefix = `/registry/configmaps/default/raw-${process.pid}-`;
let n = 0;
const t0 = performance.now();
const end = t0 + seconds * 1000;
while (performance.now() < end) insert.run(prefix + n++, value);
const took = (performance.now() - t0) / 1000;
db.close();
console.log(JSON.stringify({ rows: n, seconds: took }));
