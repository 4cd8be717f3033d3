// Run the server suite against one server: the engine with the server driver.

import type { VersionChoice } from '../protocol/versions.js';
import type { RunResult } from '../results/run.js';
import { generationOf, safetyOf, timingOf, type GenerationOptions, type SafetyOptions, type TimingOptions } from '../suites/kit/scenario.js';
import { runSuite, type EngineOptions, type ReportingOptions, type ScheduleOptions, type SelectionOptions } from './engine.js';
import { ServerDriver, type ServerDriverOptions, type ServerTarget } from './server-driver.js';
import type { EnvOptions } from './target-env.js';

/**
 * A server run's options as the package API takes them, in one flat object: runServerSuite hands each
 * group only to its user. The driver gets the target's environment, the version, timing, safety and
 * generation (the last three partly for the scenarios); the engine gets selection, schedule, reporting
 * and the seed it reports.
 */
export type ServerRunOptions = SafetyOptions &
  TimingOptions &
  GenerationOptions &
  SelectionOptions &
  ScheduleOptions &
  ReportingOptions & {
    specVersion: VersionChoice;
    /** The environment of a stdio target. */
    env?: EnvOptions;
    /** Connections a scenario may use for id-less probes on stdio. Default 6. */
    maxLanes?: number;
  };

export function runServerSuite(target: ServerTarget, opts: ServerRunOptions): Promise<RunResult> {
  return runSuite(new ServerDriver(target, driverOptionsOf(opts)), engineOptionsOf(opts));
}

/** The server driver's groups of flat run options. */
export function driverOptionsOf(opts: ServerRunOptions): ServerDriverOptions {
  const { specVersion, env, maxLanes } = opts;
  return { specVersion, env, maxLanes, timing: timingOf(opts), safety: safetyOf(opts), generation: generationOf(opts) };
}

/** The engine's groups of flat run options. */
export function engineOptionsOf(opts: ServerRunOptions): EngineOptions {
  const { only, skip, shard, checks, traffic, deadlineMs, concurrency, signal, onEvent, onProgress, seed } = opts;
  return { selection: { only, skip, shard, checks, traffic }, schedule: { deadlineMs, concurrency, signal }, reporting: { onEvent, onProgress }, seed };
}
