// The watching side of bench/watch/fanout.ts, run as a child process so that
// reading 1,000 sockets does not delay the process that issues the writes:
// opens N watch connections to a URL, splits each stream into lines and
// records, per object name, how many watchers got it and when the first and
// the last did (epoch milliseconds, sub-millisecond precision).
import http from 'node:http';

interface Arrival {
  count: number;
  first: number;
  last: number;
}

const url = process.argv[2];
const n = Number(process.argv[3]);
const send = (m: object) => process.send!(m);
const arrivals = new Map<string, Arrival>();
const sockets: http.ClientRequest[] = [];
const now = () => performance.timeOrigin + performance.now();
const NAME = /"name":"([^"]+)"/;

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch answered ${res.statusCode}`));
        return;
      }
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const t = now();
        rest += chunk;
        let nl;
        while ((nl = rest.indexOf('\n')) >= 0) {
          const line = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          const m = NAME.exec(line);
          if (!m) continue;
          const a = arrivals.get(m[1]);
          if (a) {
            a.count++;
            a.last = t;
          } else arrivals.set(m[1], { count: 1, first: t, last: t });
        }
      });
      resolve();
    });
    req.on('error', reject);
    sockets.push(req);
  });
}

process.on('message', async (msg: { op: string; name?: string }) => {
  if (msg.op === 'open') {
    for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: Math.min(50, n - i) }, open));
    send({ op: 'opened' });
  } else if (msg.op === 'get') {
    send({ op: 'arrival', name: msg.name, arrival: arrivals.get(msg.name!) ?? null });
  } else if (msg.op === 'close') {
    for (const s of sockets) s.destroy();
    send({ op: 'closed' });
  }
});
