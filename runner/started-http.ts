// An HTTP target that mcpspec starts itself for every transport (`mcpspec fuzz --start -- <cmd>`):
// each open starts the command afresh (started-server.ts), speaks Streamable HTTP to it, and close
// stops the process (and whatever it spawned). Fuzz sequences and their shrink candidates each get a
// fresh server this way, as stdio targets do. A `{port}` in the URL and the command is replaced by a
// free port per start, so several servers can run at once; without it the URL's port is fixed and
// starts must not overlap (the caller runs one at a time).

import type { CloseInfo } from '../results/wire.js';
import { HttpTransport, type HttpTarget, type HttpTransportOptions } from './http-transport.js';
import type { Recorder } from './recorder.js';
import { ServerStartError, settledWithin, StartedServer, type StartCommand, type StartedServerOptions } from './started-server.js';
import type { ExchangeOptions, ExchangeResult } from './transport.js';
import { TargetStartError } from './transport.js';

export { PORT_PLACEHOLDER, urlForValidation, usesPortPlaceholder, type StartCommand } from './started-server.js';

export interface StartedHttpOptions extends HttpTransportOptions, StartedServerOptions {}

export class StartedHttpTransport extends HttpTransport {
  private server?: StartedServer;
  private opening?: Promise<void>;

  constructor(
    private readonly urlTemplate: string,
    headers: Record<string, string> | undefined,
    private readonly start: StartCommand,
    recorder: Recorder,
    private readonly startOpts: StartedHttpOptions,
  ) {
    super({ url: urlTemplate, headers }, recorder, startOpts);
  }

  /** The started process died: how (with its last output). */
  override get closed(): CloseInfo | undefined {
    return this.server?.exit ?? super.closed;
  }

  /** The process id of the started server (undefined before open). */
  get pid(): number | undefined {
    return this.server?.pid;
  }

  override open(): Promise<void> {
    this.opening ??= this.launch();
    return this.opening;
  }

  private async launch(): Promise<void> {
    this.server = new StartedServer(this.urlTemplate, this.start, this.recorder, this.startOpts);
    try {
      (this.target as HttpTarget).url = await this.server.launch();
    } catch (e) {
      // A fuzz start failure quotes the server's last output in its message.
      if (e instanceof ServerStartError && e.tail !== undefined) throw new TargetStartError(`${e.message}\n${e.tail}`, e.code);
      throw e;
    }
  }

  override async exchange(body: unknown, opts: ExchangeOptions): Promise<ExchangeResult> {
    const r = await super.exchange(body, opts);
    const server = this.server;
    if (!server) return r;
    if (r.closed || (r.streamBroken && r.response === undefined)) {
      // The connection broke: if the process is exiting, say how (the exit may trail the reset a little).
      await settledWithin(server.exited, 1000);
    }
    const died = server.died;
    return died ? { ...r, closed: died } : r;
  }

  override async close(): Promise<CloseInfo | undefined> {
    const died = this.server?.died;
    if (!died && this.server?.spawned) await super.close();
    await this.server?.stop();
    return died ?? super.closed;
  }
}
