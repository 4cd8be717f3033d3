// The mcpspec side of a stdio scripted server: a loopback socket the relay program (stdio-relay.ts)
// connects back to. Each connection is one server process the client started; lines are JSON-RPC
// messages, recorded as stdio traffic and answered by the scenario's handler.

import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../protocol/package-root.js';
import { isJsonRpcMessage, serializeBody, tryParseJson } from '../protocol/jsonrpc.js';
import type { Received, ScriptedHandler } from '../suites/ports/scripted-server.js';
import { LineSplitter } from './line-splitter.js';
import type { Recorder } from './recorder.js';
import { ScriptedEndpoint } from './scripted-endpoint.js';

/** The relay program, compiled: beside this module in dist/, or in dist/ when this runs from source (tests). */
export const RELAY_PROGRAM = ((): string => {
  const beside = fileURLToPath(new URL('./stdio-relay.js', import.meta.url));
  return existsSync(beside) ? beside : join(packageRoot(), 'dist', 'runner', 'stdio-relay.js');
})();

export class RelayListener {
  readonly endpoint: ScriptedEndpoint;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private newest?: Socket;
  private count = 0;
  private address?: string;
  readonly token = randomBytes(12).toString('hex');

  constructor(
    readonly recorder: Recorder,
    signal?: AbortSignal,
  ) {
    this.endpoint = new ScriptedEndpoint(signal);
  }

  /** How many server processes connected so far. */
  get connections(): number {
    return this.count;
  }

  handle(h: ScriptedHandler): void {
    this.endpoint.handle(h);
  }

  received(): Received[] {
    return this.endpoint.received();
  }

  async listen(): Promise<string> {
    const server = createServer((s) => this.onConnection(s));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.address;
  }

  /** The argv words that start the scripted server for this scenario. */
  command(scenario: string, opts: { stderr?: boolean } = {}): { command: string; args: string[] } {
    if (!this.address) throw new Error('RelayListener.command before listen()');
    const args = [RELAY_PROGRAM, '--mcpspec-relay', this.address, '--token', this.token, '--scenario', scenario];
    if (opts.stderr) args.push('--stderr-logs');
    return { command: process.execPath, args };
  }

  send(message: unknown): boolean {
    const s = this.newest;
    if (!s || s.destroyed) return false;
    const text = serializeBody(message);
    this.recorder.record({ dir: 'out', channel: 'stdio', raw: text, kind: 'message', message });
    s.write(`${text}\n`);
    return true;
  }

  async close(): Promise<void> {
    this.endpoint.release();
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  private onConnection(socket: Socket): void {
    socket.setNoDelay(true);
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let connection = 0;
    const splitter = new LineSplitter((line, truncated) => {
      if (connection === 0) {
        // The first line is the relay's hello; anything else (a stray connection) is dropped.
        const hello = tryParseJson(line);
        if (!hello.ok || (hello.value as { relay?: unknown }).relay !== this.token) return void socket.destroy();
        connection = ++this.count;
        this.newest = socket;
        return;
      }
      if (line.trim() === '') return;
      void this.onLine(socket, connection, line, truncated);
    });
    socket.on('data', (c: Buffer) => splitter.push(c));
  }

  private async onLine(socket: Socket, connection: number, line: string, truncated: boolean): Promise<void> {
    const parsed = tryParseJson(line);
    const ev = this.recorder.record({
      dir: 'in',
      channel: 'stdio',
      raw: line,
      truncated,
      kind: parsed.ok && isJsonRpcMessage(parsed.value) ? 'message' : parsed.ok ? undefined : 'noise',
      message: parsed.ok ? parsed.value : undefined,
      data: { connection },
    });
    const entry: Received = { message: parsed.ok ? parsed.value : line, connection, seq: ev.seq };
    if (!parsed.ok) {
      this.endpoint.log(entry);
      return;
    }
    const reply = await this.endpoint.accept(entry);
    if (reply.die) {
      // The relay process exits once its socket closes: to the client, its server died.
      entry.died = { at: Date.now() };
      socket.destroy();
      return;
    }
    const write = (m: unknown) => {
      if (socket.destroyed) return undefined;
      const text = serializeBody(m);
      const out = this.recorder.record({ dir: 'out', channel: 'stdio', raw: text, kind: 'message', message: m });
      socket.write(`${text}\n`);
      return out.seq;
    };
    for (const m of reply.before ?? []) write(m);
    if (reply.stream) for await (const m of reply.stream) if (write(m) === undefined) break;
    const response = await reply.response;
    if (response === undefined) return;
    entry.reply = response;
    entry.replySeq = write(response);
  }
}
