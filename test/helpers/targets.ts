/**
 * Launch helpers for end-to-end tests: describe and start the servers mcpspec is run against.
 *
 * Everything listens on 127.0.0.1 with ports chosen at run time. Every process started here is
 * spawned as its own process group and killed (group-wide) by `stop()`, and again, as a safety
 * net, when the test process exits. Temporary folders are removed by `cleanup()` / `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/** The repository root (the folder holding package.json). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type StdioTargetName = 'everything' | 'filesystem' | 'memory' | 'sdk2' | 'reference';
export type HttpTargetName = 'everything' | 'sdk2' | 'reference' | 'sdk1-oauth' | 'sdk2-oauth';

/** How to spawn a stdio target. `env` holds only the variables to add to the parent's environment. */
export interface StdioTarget {
  name: StdioTargetName;
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Removes whatever the target needed on disk (temporary folders). Idempotent; never throws. */
  cleanup(): Promise<void>;
}

export interface HttpTarget {
  name: HttpTargetName;
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  /** Process id of the server (leader of its own process group). */
  pid: number;
  /** Kills the server's process group and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
  /** The last few KiB the server wrote to stdout and stderr (for failure messages). */
  output(): string;
}

export interface TargetOptions {
  /** Extra command-line arguments (e.g. `['--fault', 'jsonrpc.parse-error']` for `reference`). */
  args?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
}

export interface HttpTargetOptions extends TargetOptions {
  /** How long to wait for the server to be ready (default 20 s). */
  timeoutMs?: number;
}

const NODE = process.execPath;

/** Entry points of the servers (absolute paths). */
export const ENTRY = {
  everything: () => require.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
  filesystem: () => require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: () => require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
  sdk2: () => path.join(REPO_ROOT, 'dist', 'fixtures', 'servers', 'sdk2', 'server.js'),
  reference: () => path.join(REPO_ROOT, 'dist', 'fixtures', 'servers', 'reference', 'main.js'),
} as const satisfies Record<StdioTargetName, () => string>;

/** Preload that binds a port-only `listen()` to 127.0.0.1 (for servers without a host option). */
const LOOPBACK_PRELOAD = pathToFileURL(path.join(REPO_ROOT, 'test', 'helpers', 'loopback-only.mjs')).href;

/** Whether the target's entry file exists (the `dist/` ones need `npm run build`). */
export function targetAvailable(name: StdioTargetName): boolean {
  try {
    return existsSync(ENTRY[name]());
  } catch {
    return false;
  }
}

/** Temporary folders not yet cleaned up; removed at exit as a safety net. */
const tempDirs = new Set<string>();

function makeTempDir(prefix: string): string {
  installExitHooks();
  const dir = mkdtempSync(path.join(tmpdir(), `mcpspec-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

function removeDirSync(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // best effort
  }
  tempDirs.delete(dir);
}

function removeDir(dir: string): Promise<void> {
  removeDirSync(dir);
  return Promise.resolve();
}

const noCleanup = (): Promise<void> => Promise.resolve();

/**
 * Describes how to start a target over stdio. For `filesystem` a fresh temporary folder with a few
 * files is created (its path is the last argument); for `memory` the memory file is pointed to a
 * temporary file through `MEMORY_FILE_PATH`. Call `cleanup()` when done.
 */
export function stdioTarget(name: StdioTargetName, options: TargetOptions = {}): StdioTarget {
  const extraArgs = options.args ?? [];
  const extraEnv = options.env ?? {};
  switch (name) {
    case 'everything':
      // dist/index.js takes the transport as its first argument: stdio (default), sse, streamableHttp.
      return { name, command: NODE, args: [ENTRY.everything(), 'stdio', ...extraArgs], env: { ...extraEnv }, cleanup: noCleanup };
    case 'filesystem': {
      const dir = makeTempDir('fs');
      writeFileSync(path.join(dir, 'hello.txt'), 'Hello, world!\n');
      writeFileSync(path.join(dir, 'notes.md'), '# Notes\n\n- first\n- second\n');
      mkdirSync(path.join(dir, 'sub'));
      writeFileSync(path.join(dir, 'sub', 'data.json'), JSON.stringify({ answer: 42 }) + '\n');
      // Allowed directories are positional arguments.
      return {
        name,
        command: NODE,
        args: [ENTRY.filesystem(), ...extraArgs, dir],
        cwd: dir,
        env: { ...extraEnv },
        cleanup: () => removeDir(dir),
      };
    }
    case 'memory': {
      const dir = makeTempDir('memory');
      return {
        name,
        command: NODE,
        args: [ENTRY.memory(), ...extraArgs],
        cwd: dir,
        // Without it the server writes memory.jsonl next to its own dist/index.js in node_modules.
        env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl'), ...extraEnv },
        cleanup: () => removeDir(dir),
      };
    }
    case 'sdk2':
      return { name, command: NODE, args: [ENTRY.sdk2(), ...extraArgs], cwd: REPO_ROOT, env: { ...extraEnv }, cleanup: noCleanup };
    case 'reference':
      return { name, command: NODE, args: [ENTRY.reference(), ...extraArgs], cwd: REPO_ROOT, env: { ...extraEnv }, cleanup: noCleanup };
    default:
      throw new Error(`unknown stdio target: ${String(name)}`);
  }
}

/** Asks the OS for a free TCP port on 127.0.0.1 (bind to port 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the bound port'));
        return;
      }
      const { port } = address;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Process bookkeeping: every child is a process-group leader; all live groups are killed on exit.

const live = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function killAllSync(): void {
  for (const child of live) killGroup(child, 'SIGKILL');
  live.clear();
  for (const dir of [...tempDirs]) removeDirSync(dir);
}

let exitHooksInstalled = false;
function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', killAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killAllSync();
      // If nobody else handles the signal, fall back to its default action.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.once(signal, onSignal);
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, timeoutMs);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** Kills a child's whole process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function killProcessTree(child: ChildProcess, graceMs = 2000): Promise<void> {
  if (!exited(child)) {
    killGroup(child, 'SIGTERM');
    if (!(await waitForExit(child, graceMs))) {
      killGroup(child, 'SIGKILL');
      await waitForExit(child, graceMs);
    }
  } else {
    // The leader is gone; make sure nothing else of its group lingers.
    killGroup(child, 'SIGKILL');
  }
  live.delete(child);
}

/** A bounded record of what a child printed, for error messages. */
class OutputTail {
  private text = '';
  constructor(private readonly limit = 8192) {}
  add(label: string, chunk: string): void {
    this.text += chunk
      .split(/(?<=\n)/)
      .map((line) => `${label}${line}`)
      .join('');
    if (this.text.length > this.limit) this.text = this.text.slice(-this.limit);
  }
  toString(): string {
    return this.text;
  }
}

interface Spawned {
  child: ChildProcess;
  tail: OutputTail;
}

function spawnTracked(command: string, args: string[], cwd: string | undefined, env: Record<string, string>): Spawned {
  installExitHooks();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // own process group, so stop() can kill the whole tree
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const tail = new OutputTail();
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  // Always drain both pipes: a server that logs to stdout must never block on a full pipe.
  child.stderr?.on('data', (chunk: string) => tail.add('[stderr] ', chunk));
  child.stdin?.on('error', () => undefined);
  return { child, tail };
}

// ---------------------------------------------------------------------------------------------
// stdio

export interface StdioProcess {
  target: StdioTarget;
  child: ChildProcess;
  /** Writes one JSON-RPC message (or a raw string, sent as is) followed by a newline. */
  send(message: unknown): void;
  /** The next stdout line, or an error after `timeoutMs` (default 10 s) or when stdout ends. */
  nextLine(timeoutMs?: number): Promise<string>;
  /** Kills the process group, waits for it, and runs the target's cleanup. Idempotent. */
  stop(): Promise<void>;
  output(): string;
}

/** Spawns a stdio target and gives line-based access to its stdout. */
export function startStdioTarget(name: StdioTargetName, options: TargetOptions = {}): StdioProcess {
  const target = stdioTarget(name, options);
  const { child, tail } = spawnTracked(target.command, target.args, target.cwd, target.env ?? {});
  const lines: string[] = [];
  const waiters: Array<(line: string | null) => void> = [];
  let buffer = '';
  let ended = false;
  child.stdout?.on('data', (chunk: string) => {
    tail.add('[stdout] ', chunk);
    buffer += chunk;
    let index: number;
    while ((index = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, index).replace(/\r$/, '');
      buffer = buffer.slice(index + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  child.stdout?.on('end', () => {
    ended = true;
    for (const waiter of waiters.splice(0)) waiter(null);
  });

  let stopped: Promise<void> | undefined;
  return {
    target,
    child,
    send(message: unknown): void {
      const text = typeof message === 'string' ? message : JSON.stringify(message);
      child.stdin?.write(`${text}\n`);
    },
    nextLine(timeoutMs = 10_000): Promise<string> {
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (ended) return Promise.reject(new Error(`${name}: stdout ended\n${tail}`));
      return new Promise((resolve, reject) => {
        const waiter = (line: string | null): void => {
          clearTimeout(timer);
          if (line === null) reject(new Error(`${name}: stdout ended\n${tail}`));
          else resolve(line);
        };
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`${name}: no stdout line within ${timeoutMs} ms\n${tail}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    stop(): Promise<void> {
      stopped ??= (async () => {
        child.stdin?.end();
        await killProcessTree(child);
        await target.cleanup();
      })();
      return stopped;
    },
    output: () => tail.toString(),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function canConnect(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean): void => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Resolves with the URL of the first stdout line `listening <url>`, rejects on timeout or exit. */
function waitForListeningLine(spawned: Spawned, name: string, timeoutMs: number): Promise<string> {
  const { child, tail } = spawned;
  return new Promise((resolve, reject) => {
    let buffer = '';
    let settled = false;
    const finish = (error: Error | null, url?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(url as string);
    };
    const onData = (chunk: string): void => {
      tail.add('[stdout] ', chunk);
      if (settled) return;
      buffer += chunk;
      let index: number;
      while ((index = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, index).trim();
        buffer = buffer.slice(index + 1);
        const match = /^listening (https?:\/\/\S+)$/.exec(line);
        if (match) {
          finish(null, match[1]);
          return;
        }
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      finish(new Error(`${name} exited (code ${code}, signal ${signal}) before printing "listening <url>"\n${tail}`));
    const timer = setTimeout(
      () => finish(new Error(`${name} printed no "listening <url>" line within ${timeoutMs} ms\n${tail}`)),
      timeoutMs,
    );
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Polls until 127.0.0.1:port accepts a TCP connection; rejects on timeout or if the child exits. */
async function waitForPort(spawned: Spawned, name: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited(spawned.child)) {
      throw new Error(
        `${name} exited (code ${spawned.child.exitCode}, signal ${spawned.child.signalCode}) before accepting connections on port ${port}\n${spawned.tail}`,
      );
    }
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`${name} did not accept connections on port ${port} within ${timeoutMs} ms\n${spawned.tail}`);
    await delay(100);
  }
}

function makeHttpTarget(name: HttpTargetName, url: string, spawned: Spawned, cleanup: () => Promise<void>): HttpTarget {
  let stopped: Promise<void> | undefined;
  return {
    name,
    url,
    pid: spawned.child.pid ?? -1,
    stop(): Promise<void> {
      stopped ??= (async () => {
        await killProcessTree(spawned.child);
        await cleanup();
      })();
      return stopped;
    },
    output: () => spawned.tail.toString(),
  };
}

async function startEverythingHttp(options: HttpTargetOptions, timeoutMs: number): Promise<HttpTarget> {
  // The port comes from the PORT environment variable (default 3001); the server has no host
  // option and would bind every interface, so the loopback preload pins it to 127.0.0.1.
  // A free port can be taken by someone else between freePort() and the bind: retry then.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const args = ['--import', LOOPBACK_PRELOAD, ENTRY.everything(), 'streamableHttp', ...(options.args ?? [])];
    const spawned = spawnTracked(NODE, args, REPO_ROOT, { ...options.env, PORT: String(port) });
    spawned.child.stdout?.on('data', (chunk: string) => spawned.tail.add('[stdout] ', chunk));
    try {
      await waitForPort(spawned, 'everything', port, timeoutMs);
      return makeHttpTarget('everything', `http://127.0.0.1:${port}/mcp`, spawned, noCleanup);
    } catch (error) {
      lastError = error;
      await killProcessTree(spawned.child);
      if (!/EADDRINUSE|already in use/.test(spawned.tail.toString())) break;
    }
  }
  throw lastError;
}

async function startListeningLineTarget(
  name: 'sdk2' | 'reference',
  options: HttpTargetOptions,
  timeoutMs: number,
): Promise<HttpTarget> {
  const entry = ENTRY[name]();
  if (!existsSync(entry)) throw new Error(`${name}: ${entry} does not exist (run \`npm run build\`)`);
  const spawned = spawnTracked(NODE, [entry, '--http', '--port', '0', ...(options.args ?? [])], REPO_ROOT, options.env ?? {});
  try {
    const url = await waitForListeningLine(spawned, name, timeoutMs);
    const parsed = new URL(url);
    await waitForPort(spawned, name, Number(parsed.port), timeoutMs);
    return makeHttpTarget(name, url, spawned, noCleanup);
  } catch (error) {
    await killProcessTree(spawned.child);
    throw error;
  }
}

/** The one access token the `sdk2-oauth` target accepts. */
export const SDK2_OAUTH_TOKEN = 'mcpspec-sdk2-oauth-token';

/**
 * The SDK 1.x example `simpleStreamableHttp --oauth`: /mcp behind bearer auth, its demo authorization
 * server on a second port. Both ports come from MCP_PORT / MCP_AUTH_PORT; the example names itself
 * `localhost` in its metadata, so the URL says localhost too (the preload keeps it on 127.0.0.1).
 */
async function startSdk1OAuth(options: HttpTargetOptions, timeoutMs: number): Promise<HttpTarget> {
  const entry = require.resolve('@modelcontextprotocol/sdk/examples/server/simpleStreamableHttp.js').replace(/([\/])cjs([\/])/, '$1esm$2');
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const [port, authPort] = [await freePort(), await freePort()];
    const spawned = spawnTracked(NODE, ['--import', LOOPBACK_PRELOAD, entry, '--oauth', ...(options.args ?? [])], REPO_ROOT, { ...options.env, MCP_PORT: String(port), MCP_AUTH_PORT: String(authPort) });
    spawned.child.stdout?.on('data', (chunk: string) => spawned.tail.add('[stdout] ', chunk));
    try {
      await waitForPort(spawned, 'sdk1-oauth', port, timeoutMs);
      await waitForPort(spawned, 'sdk1-oauth', authPort, timeoutMs);
      return makeHttpTarget('sdk1-oauth', `http://localhost:${port}/mcp`, spawned, noCleanup);
    } catch (error) {
      lastError = error;
      await killProcessTree(spawned.child);
      if (!/EADDRINUSE|already in use/.test(spawned.tail.toString())) break;
    }
  }
  throw lastError;
}

/**
 * Starts a target in its Streamable HTTP mode on 127.0.0.1 and resolves once it accepts
 * connections. `stop()` kills it (and its children); it is also killed when the test process exits.
 */
export async function startHttpTarget(name: HttpTargetName, options: HttpTargetOptions = {}): Promise<HttpTarget> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  switch (name) {
    case 'everything':
      return startEverythingHttp(options, timeoutMs);
    case 'sdk2':
    case 'reference':
      return startListeningLineTarget(name, options, timeoutMs);
    case 'sdk1-oauth':
      return startSdk1OAuth(options, timeoutMs);
    case 'sdk2-oauth':
      // The 2.x fixture behind the SDK's bearer gate and metadata documents (its --oauth-token).
      return startListeningLineTarget('sdk2', { ...options, args: ['--oauth-token', SDK2_OAUTH_TOKEN, ...(options.args ?? [])] }, timeoutMs);
    default:
      throw new Error(`unknown HTTP target: ${String(name)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Message builders used by the smoke tests (and handy elsewhere).

export const MODERN_VERSION = '2026-07-28';

/** `_meta` envelope of a 2026-07-28 request. */
export function modernMeta(protocolVersion = MODERN_VERSION): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': protocolVersion,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A legacy `initialize` request. */
export function initializeRequest(id: number | string = 1, protocolVersion = '2025-11-25'): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'mcpspec-test', version: '0.0.0' } },
  };
}

/** A 2026-07-28 `server/discover` request. */
export function discoverRequest(id: number | string = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta() } };
}

/**
 * Parses an HTTP MCP response body: a JSON body, or the `data:` of the first SSE event that has
 * data (the stream is cancelled after it, so an SSE stream that stays open does not hang).
 */
export async function readJsonRpcBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || !response.body) return JSON.parse(await response.text());
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      let match: RegExpExecArray | null;
      while ((match = /\r?\n\r?\n/.exec(buffer)) !== null) {
        const block = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        const data = block
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data) return JSON.parse(data);
      }
      if (done) throw new Error(`no SSE data event in: ${buffer.slice(0, 500)}`);
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
