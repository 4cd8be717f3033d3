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

/** A server that listens on the port it is given and prints "up <port> pid <pid>" (the started-server tests). */
export const LISTEN = fileURLToPath(new URL('./listen-server.mjs', import.meta.url));

/** The pids the listen server printed ("up <port> pid <pid>"), in order. */
export const pidsIn = (text: string): number[] => [...text.matchAll(/up \d+ pid (\d+)/g)].map((m) => Number(m[1]));

/** The output may trail the port's first accepted connection a little: wait for the n-th "up" line. */
export async function pids(printed: () => string | undefined, n = 1): Promise<number[]> {
  await waitFor(() => pidsIn(printed() ?? '').length >= n, 3000);
  return pidsIn(printed() ?? '');
}
