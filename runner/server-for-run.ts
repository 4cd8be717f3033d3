// The HTTP server a whole `mcpspec server --url ... --start -- <cmd>` run talks to: started once
// before the first session, stopped when the run ends. If it dies on its own (a crash: evidence,
// recorded like a stdio target's), the scenarios under way are cut short, since their answers died
// with it, and the run goes on with the server started again, a few times at most; one log covers
// every start.

import type { Recorder } from './recorder.js';
import { StartedServer, type StartCommand, type StartedServerOptions } from './started-server.js';
import { TailBuffer } from './tail-buffer.js';

/** How many times a server that keeps dying is started again before the rest of the run is given up. */
export const MAX_RESTARTS = 5;

export class ServerForRun {
  private current: StartedServer;
  /** Aborted when the current server dies: what was under way on it is cut short. */
  private life = new AbortController();
  private readonly output = new TailBuffer();
  private deaths = 0;
  private restarting?: Promise<string | undefined>;
  /** Set once the server could not be had again: why the rest of the run is not run. */
  private gone?: string;
  /** The endpoint of the last server that came up (the template until one did). */
  private served: string;
  /** Called when a server of the run dies on its own (what was tied to it must be let go). */
  onDeath?: () => void;

  constructor(
    private readonly urlTemplate: string,
    private readonly start: StartCommand,
    private readonly recorder: Recorder,
    private readonly opts: StartedServerOptions,
  ) {
    this.served = urlTemplate;
    this.current = this.make();
  }

  private make(): StartedServer {
    const server = new StartedServer(this.urlTemplate, this.start, this.recorder, { ...this.opts, output: this.output });
    const life = this.life;
    server.onDeath = () => {
      this.deaths++;
      life.abort(new Error('exited'));
      this.onDeath?.();
    };
    return server;
  }

  /** The endpoint of the server now running (`{port}` filled once launched). */
  get url(): string {
    return this.served;
  }

  /** Aborts when the server now running dies. */
  get lifeSignal(): AbortSignal {
    return this.life.signal;
  }

  /** It died on its own at least once during the run. */
  get died(): boolean {
    return this.deaths > 0;
  }

  /** The server now running died and was not started again (yet). */
  get down(): boolean {
    return this.current.died !== undefined;
  }

  /** How the server now running exited, if it did so on its own (awaiting `exited` first when a connection broke). */
  get deathOf(): StartedServer['died'] {
    return this.current.died;
  }

  get exited(): Promise<void> {
    return this.current.exited;
  }

  /** Everything the servers of this run printed (the last 64 KiB), undefined when none was spawned. */
  printed(): string | undefined {
    return this.current.pid !== undefined || this.deaths > 0 ? this.output.toString() : undefined;
  }

  describe(): string {
    return this.current.describe();
  }

  /** The first start: resolves to the endpoint, or throws the ServerStartError that says why not. */
  async launch(signal?: AbortSignal): Promise<string> {
    this.served = await this.current.launch(signal);
    return this.served;
  }

  /**
   * Before a scenario: undefined when the server is up, started again if it had died; otherwise why
   * the scenario cannot run. Scenarios that ask at once share one restart.
   */
  async ready(signal?: AbortSignal): Promise<string | undefined> {
    if (this.gone) return this.gone;
    if (this.restarting) return this.restarting;
    if (!this.down) return undefined;
    this.restarting = this.restart(signal).finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  private async restart(signal?: AbortSignal): Promise<string | undefined> {
    const died = this.current.died;
    await this.current.stop(); // what it spawned and left behind
    if (this.deaths > MAX_RESTARTS) return (this.gone = `the started server exited ${this.deaths} times; mcpspec stopped starting it again`);
    this.output.push(`\n[mcpspec: the server exited (code ${died?.exitCode ?? null}, signal ${died?.signal ?? null}); starting it again]\n`);
    this.life = new AbortController();
    this.current = this.make();
    try {
      await this.launch(signal);
      return undefined;
    } catch (e) {
      if (signal?.aborted) return 'the run ended while the server was started again';
      return (this.gone = `the started server exited and could not be started again: ${(e as Error).message}`);
    }
  }

  /** Stop the server now running (SIGTERM, then SIGKILL). */
  stop(): Promise<void> {
    return this.current.stop();
  }
}
