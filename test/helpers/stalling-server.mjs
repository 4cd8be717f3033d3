// A stdio MCP server that stops answering: it relays the reference fixture until the first
// tools/call, then forwards nothing more (and stays alive), like a server stuck in a handler.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const child = spawn(process.execPath, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] });
let stalled = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.includes('"tools/call"')) stalled = true;
  if (!stalled) child.stdin.write(`${line}\n`);
});
createInterface({ input: child.stdout }).on('line', (line) => {
  if (!stalled) process.stdout.write(`${line}\n`);
});
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => { child.kill('SIGKILL'); process.exit(143); });
