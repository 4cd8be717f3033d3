// A tiny MCP client for the engine's client-role test: server/discover, then tools/list, over
// Streamable HTTP (2026-07-28). `--omit-meta` leaves `_meta` off the second request (a fault).
// `--leave-child PIDFILE`: before exiting, start a process that outlives it holding its stdout and
// stderr (as a helper a client spawns may), and write that process's pid to PIDFILE.
const [url, ...flags] = process.argv.slice(2);
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'toy', version: '1' } };

async function call(id, method, withMeta = true) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: withMeta ? { _meta: meta } : {} }),
  });
  return res.json();
}

const discover = await call(1, 'server/discover');
if (!discover.result) process.exit(3);
const tools = await call(2, 'tools/list', !flags.includes('--omit-meta'));
console.log(`${tools.result?.tools?.length ?? 0} tools`);
const leave = flags.indexOf('--leave-child');
if (leave >= 0) {
  const { spawn } = await import('node:child_process');
  const { writeFileSync } = await import('node:fs');
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
  writeFileSync(flags[leave + 1], String(child.pid));
  child.unref();
}
