// @modelcontextprotocol/server-everything over Streamable HTTP on a free loopback port: the common
// target of the server and official sections.
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../protocol/package-root.js';
import { spawnTracked, stop } from './processes.js';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
// server-everything's HTTP mode listens on every interface; this preload keeps it on 127.0.0.1.
const LOOPBACK = pathToFileURL(join(packageRoot(), 'test', 'helpers', 'loopback-only.mjs')).href;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Start server-everything in `streamableHttp` mode and wait (20 s at most) until it answers. */
export async function startEverythingHttp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawnTracked(process.execPath, ['--import', LOOPBACK, EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  const until = Date.now() + 20_000;
  while (Date.now() < until && proc.exitCode === null) {
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(500) });
      return { url, stop: () => stop(proc) };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop(proc);
  throw new Error('server-everything did not start listening within 20 s');
}
