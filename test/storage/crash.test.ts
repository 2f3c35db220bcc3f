// Durability: a child process writes in a storm and is killed with SIGKILL;
// after reopening the database every write it acknowledged is present, the
// log and the current-state table agree, and no value is half-written.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('SQLite KV crash safety', () => {
  it('keeps every acknowledged write across SIGKILL during a write storm', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-crash-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'crash-writer.ts'), dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let buf = '';
      const acked = new Map<string, number>();
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
      await new Promise<void>((resolve, reject) => {
        let killTimer: NodeJS.Timeout | undefined;
        const failTimer = setTimeout(() => reject(new Error(`writer produced no acks: ${stderr}`)), 15_000);
        child.stdout.on('data', (d: Buffer) => {
          buf += d.toString();
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const [, key, v] = buf.slice(0, nl).split(' ');
            buf = buf.slice(nl + 1);
            acked.set(key, Math.max(acked.get(key) ?? -1, Number(v)));
          }
          if (!killTimer && acked.size > 500) {
            clearTimeout(failTimer);
            // Let the storm run a little, then kill it mid-write.
            killTimer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, 700);
          }
        });
      });
      expect(await exited).toBe('SIGKILL');
      expect(acked.size).toBeGreaterThan(500);

      const kv = openSqliteKV({ path: path.join(dir, 'specserver.db') });
      try {
        for (const [key, v] of acked) {
          const got = await kv.get(key);
          expect(got, key).not.toBeNull();
          const obj = JSON.parse(got!.value);
          if (key.includes('/counters/')) expect(obj.seq).toBeGreaterThanOrEqual(v);
          else expect(obj.i).toBe(v);
        }
        // Nothing half-written: every stored value parses, the log and the
        // current table agree, and revisions go on from the last one.
        const all = await kv.list('/registry/crash/');
        for (const x of all.kvs) expect(() => JSON.parse(x.value)).not.toThrow();
        const st = kv.stats();
        expect(st.currentRows).toBe(all.kvs.length);
        const next = await kv.create('/registry/crash/after', '{}');
        expect(next.modRevision).toBe(all.revision + 1);
      } finally {
        await kv.close();
      }
      const db = new Database(path.join(dir, 'specserver.db'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const orphans = db.prepare('SELECT count(*) FROM current c LEFT JOIN log l ON l.rev = c.rev WHERE l.rev IS NULL').pluck().get();
        expect(orphans).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
