// mcpspec's scripted server as a stdio program: what `{server}` expands to in `mcpspec client
// --stdio`. The client under test starts it like any server; it connects back to the running mcpspec
// over a loopback socket and relays bytes both ways (stdin -> mcpspec, mcpspec -> stdout). Everything
// it needs is in argv (SDK clients start servers with a filtered environment). It imports nothing,
// so it starts in a few tens of milliseconds.
//
//   node stdio-relay.js --mcpspec-relay 127.0.0.1:PORT --token T --scenario NAME [--stderr-logs]
//
// --stderr-logs: log to stderr as many servers do (a line at start and one per message sent), which
// a client may show or drop but should not take for an error (IO-03).

import { connect } from 'node:net';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const address = arg('--mcpspec-relay');
const token = arg('--token') ?? '';
const m = address ? /^127\.0\.0\.1:(\d+)$/.exec(address) : null;
if (!m) {
  process.stderr.write('mcpspec scripted server: started without --mcpspec-relay 127.0.0.1:PORT; it only runs under `mcpspec client --stdio`\n');
  process.exit(2);
}
const logs = argv.includes('--stderr-logs');
const log = (what: string) => logs && process.stderr.write(`${new Date().toISOString()} [info] mcpspec scripted server: ${what}\n`);
log('starting (this server logs to stderr)');
const socket = connect({ host: '127.0.0.1', port: Number(m[1]) });
socket.setNoDelay(true);
socket.on('connect', () => {
  socket.write(`${JSON.stringify({ relay: token, scenario: arg('--scenario') ?? '', pid: process.pid })}\n`);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  if (logs) socket.on('data', (chunk: Buffer) => log(`sent ${chunk.length} bytes`));
});
socket.on('error', (e) => {
  process.stderr.write(`mcpspec scripted server: cannot reach mcpspec at ${address}: ${e.message} (is the mcpspec run still going?)\n`);
  process.exit(1);
});
// mcpspec ended the scenario (or went away): the server process ends, as a server does.
socket.on('close', () => process.exit(0));
process.stdin.on('error', () => socket.destroy());
