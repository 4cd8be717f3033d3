// A stdio MCP server whose reader seems stalled at the wrong moment: it relays the reference fixture,
// but holds the progress notifications of the calls mcpspec means to cancel (progressToken
// `mcpspec-cancel-<n>`, not the baselines) until that call's response, and writes them and the
// response in one write. mcpspec then reads the first progress and the response in the same chunk:
// the call was never seen in flight, so a cancellation sent then is a race, not a verdict.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const child = spawn(process.execPath, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
const held = [];
createInterface({ input: child.stdout }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    // not JSON: relayed as it is
  }
  const token = msg?.method === 'notifications/progress' ? String(msg.params?.progressToken) : undefined;
  if (token !== undefined && /^mcpspec-cancel-\d+$/.test(token)) return void held.push(line);
  const answersHeld = held.length > 0 && msg && 'id' in msg && !('method' in msg) && /^mcpspec-cancel-modern-\d+/.test(String(msg.id));
  if (answersHeld) {
    process.stdout.write(`${held.join('\n')}\n${line}\n`);
    held.length = 0;
    return;
  }
  process.stdout.write(`${line}\n`);
});
child.on('exit', (code) => process.exit(code ?? 0));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => { child.kill('SIGKILL'); process.exit(143); });
