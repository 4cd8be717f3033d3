// A stdio MCP server that never answers ping and answers everything else: it relays the reference
// fixture but swallows ping requests. Such a server breaks LC-10; it is not hung.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const child = spawn(process.execPath, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] });
createInterface({ input: process.stdin }).on('line', (line) => {
  let method;
  try {
    method = JSON.parse(line).method;
  } catch {
    // not JSON: the server's to answer
  }
  if (method !== 'ping') child.stdin.write(`${line}\n`);
});
createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => { child.kill('SIGKILL'); process.exit(143); });
