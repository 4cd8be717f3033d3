// Run the server suite against one server: the engine with the server driver.

import type { RunResult } from '../results/run.js';
import { runSuite, type EngineOptions } from './engine.js';
import { ServerDriver, type ServerDriverOptions, type ServerTarget } from './server-driver.js';

export type ServerRunOptions = ServerDriverOptions & Omit<EngineOptions, 'seed'>;

export function runServerSuite(target: ServerTarget, opts: ServerRunOptions): Promise<RunResult> {
  return runSuite(new ServerDriver(target, opts), { ...opts, seed: opts.seed });
}
