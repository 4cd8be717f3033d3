// Running a client under test against mcpspec's scripted server: what the client-role scenarios of
// every spec area (each area's client-scenarios.ts) share. A scenario bends the scripted server
// (./scripted-server.ts) one way, starts the client under test against it, and returns what the
// client sent and how it ended. A client written for conformance may read MCPSPEC_SCENARIO (the
// scenario's id); a plain client just does its own thing and is judged on it.

import type { ClientExit, Received } from '../ports/scripted-server.js';
import type { ClientScenarioContext, PlainRun } from '../kit/scenario.js';
import { runScript, type ScriptLog, type ScriptOptions } from './scripted-server.js';

export interface ClientObs {
  exit: ClientExit;
  received: Received[];
  transport: 'stdio' | 'http';
  log: ScriptLog;
  plain?: PlainRun;
}

/** Runs the client under test against the script (`env`: variables its run gets besides its usual ones), and gathers what a client check reads. */
export async function observe(ctx: ClientScenarioContext, log: ScriptLog, env?: Record<string, string>): Promise<ClientObs> {
  const exit = await ctx.server.runClient(undefined, env);
  return { exit, received: ctx.server.received(), transport: ctx.server.kind, log, plain: ctx.plain };
}

/** How a scenario bends the scripted server, as data: every option of the script but the timeout, which is the run's. */
export type ScriptProfile = Omit<ScriptOptions, 'timeoutMs'>;

/** The scripted server bent by `profile`, installed on the scenario's port; then the client's run against it, observed. */
export function playScript(ctx: ClientScenarioContext, profile: ScriptProfile): Promise<ClientObs> {
  return observe(ctx, runScript(ctx.server, { ...profile, timeoutMs: ctx.options.timeoutMs }));
}
