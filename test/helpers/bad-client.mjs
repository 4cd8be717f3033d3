// A misbehaving client for `mcpspec client` tests. argv: <mode> <pidfile> <url or anything>.
// Modes: exit (exits 3 at once), silent (never connects, runs forever), hang (connects, then runs forever).
import { writeFileSync } from 'node:fs';
const [mode, pidFile, url] = process.argv.slice(2);
writeFileSync(pidFile, JSON.stringify({ pid: process.pid, url }));
if (mode === 'exit') process.exit(3);
if (mode === 'hang') {
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
}
setInterval(() => {}, 60_000);
