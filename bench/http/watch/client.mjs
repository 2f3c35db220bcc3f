// The watch client of the watch benches, one child process for both sides
// (our server and the bare fan-out baseline), driven over IPC:
//   {cmd: 'open', url, count, track}  opens `count` streaming GETs of url and
//                                     answers {opened} once all have their headers
//   {cmd: 'close'}                    ends them and answers {closed}
// With track, each line received is an event whose object's first "name"
// field names it; once an event has arrived on every stream the client
// answers {name, first, last}: the times it arrived on the first and on the
// last stream (process.hrtime in ms, the system's monotonic clock, which the
// parent reads too). Without track each stream is read from a plain socket
// (no HTTP parser: the response head is checked, the chunked body's framing
// is stepped over, and its bytes are only scanned, not decoded) and counts
// its events, one a line feed (JSON inside an event never holds a raw one):
//   {cmd: 'count'}                    answers {counts: [min, max], ended}, the
//                                     fewest and most events a stream got, and
//                                     how many streams the server ended
// Plain JavaScript, so it runs the same with or without a TypeScript loader.
import { Agent, get } from 'node:http';
import { connect } from 'node:net';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
// the parent may be gone (a test that ended, a bench stopped): then nothing is left to answer
const send = (m) => {
  if (process.connected) process.send(m, (err) => err && process.exit(0));
};
process.on('disconnect', () => process.exit(0));
let streams = [];
let arrivals = new Map();
/** Events counted per stream (without track). */
let counts = [];
/** Streams the server ended or dropped (not closed by this client). */
let ended = 0;
let closing = false;

/**
 * Line feeds in a chunked body, read piece by piece: the chunks' size lines
 * and their CRLFs are stepped over, the line feeds of their data counted.
 */
class ChunkedCounter {
  /** 'size': in a size line (its text so far in `line`); 'data': `left` bytes of data to go; 'crlf': `left` bytes of a chunk's CRLF to go. */
  state = 'size';
  line = '';
  left = 0;
  /** Line feeds in data so far. */
  count = 0;
  /** The last chunk was read. */
  done = false;

  feed(buf, from) {
    let at = from;
    while (at < buf.length && !this.done) {
      if (this.state === 'size') {
        const nl = buf.indexOf(10, at);
        this.line += buf.toString('latin1', at, nl === -1 ? buf.length : nl);
        if (nl === -1) return;
        at = nl + 1;
        const size = parseInt(this.line, 16);
        this.line = '';
        if (!(size > 0)) this.done = true;
        else [this.state, this.left] = ['data', size];
      } else if (this.state === 'data') {
        const end = Math.min(buf.length, at + this.left);
        for (let i = buf.indexOf(10, at); i !== -1 && i < end; i = buf.indexOf(10, i + 1)) this.count++;
        this.left -= end - at;
        at = end;
        if (this.left === 0) [this.state, this.left] = ['crlf', 2];
      } else {
        const n = Math.min(this.left, buf.length - at);
        this.left -= n;
        at += n;
        if (this.left === 0) this.state = 'size';
      }
    }
  }
}

/** Opens `count` watches of url on plain sockets, counting each one's events (see above). */
function openCounted(url, count) {
  const { hostname, port, pathname, search } = new URL(url);
  let ready = 0;
  for (let i = 0; i < count; i++) {
    const sock = connect(Number(port), hostname);
    let head = '';
    let body;
    sock.on('connect', () => sock.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    sock.on('data', (chunk) => {
      if (body) {
        body.feed(chunk, 0);
        counts[i] = body.count;
        return;
      }
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      if (!/^HTTP\/1\.1 200 /.test(head) || !/\r\ntransfer-encoding: *chunked\r\n/i.test(head.slice(0, end + 2))) {
        send({ error: `watch ${url}: ${head.slice(9, head.indexOf('\r\n'))}` });
        sock.destroy();
        return;
      }
      body = new ChunkedCounter();
      body.feed(chunk, chunk.length - (head.length - end - 4));
      counts[i] = body.count;
      if (++ready === count) send({ opened: count });
    });
    sock.on('error', (err) => {
      if (!body && !closing) send({ error: `watch ${url}: ${err.message}` });
    });
    sock.on('close', () => {
      if (!closing) ended++;
    });
    streams.push(sock);
  }
}

function open({ url, count, track }) {
  arrivals = new Map();
  counts = new Array(count).fill(0);
  ended = 0;
  closing = false;
  if (!track) return openCounted(url, count);
  let ready = 0;
  for (let i = 0; i < count; i++) {
    const req = get(url, { agent }, (res) => {
      if (res.statusCode !== 200) {
        send({ error: `watch ${url}: ${res.statusCode}` });
        res.resume();
        return;
      }
      let partial = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const t = now();
        const lines = (partial + chunk).split('\n');
        partial = lines.pop();
        for (const line of lines) {
          const m = /"name":"([^"]+)"/.exec(line);
          if (!m) continue;
          const a = arrivals.get(m[1]);
          if (!a) arrivals.set(m[1], { n: 1, first: t, last: t });
          else {
            a.n++;
            a.last = t;
          }
          const b = arrivals.get(m[1]);
          if (b.n === count) {
            arrivals.delete(m[1]);
            send({ name: m[1], first: b.first, last: b.last });
          }
        }
      });
      res.on('error', () => {});
      if (++ready === count) send({ opened: count });
    });
    req.on('error', (err) => {
      if (!req.destroyed) send({ error: `watch ${url}: ${err.message}` });
    });
    streams.push(req);
  }
}

process.on('message', (m) => {
  if (m.cmd === 'open') open(m);
  if (m.cmd === 'count') send({ counts: counts.length ? [Math.min(...counts), Math.max(...counts)] : [0, 0], ended });
  if (m.cmd === 'close') {
    closing = true;
    for (const req of streams) req.destroy();
    streams = [];
    send({ closed: true });
  }
});
process.on('disconnect', () => process.exit(0));
