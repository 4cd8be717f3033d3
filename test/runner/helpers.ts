// Shared helpers for runner tests.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Recorder } from '../../runner/recorder.js';
import { StdioTransport, type StdioTransportOptions } from '../../runner/stdio-transport.js';

export const FAKE_STDIO = fileURLToPath(new URL('./fake-stdio-server.mjs', import.meta.url));
export const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

export function fakeStdio(
  env: Record<string, string> = {},
  recorder = new Recorder(),
  opts: StdioTransportOptions = {},
): StdioTransport {
  return new StdioTransport({ command: process.execPath, args: [FAKE_STDIO], env }, recorder, opts);
}

export function req(id: string | number, method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // a zombie has exited; only its parent has not collected it yet
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}
