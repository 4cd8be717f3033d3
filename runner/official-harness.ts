// The official conformance suite's client contract, as mcpspec's client driver applies it to a harness
// written for that suite (`mcpspec client --http --official-harness`): the server URL is the command's
// last argument; the environment names the official scenario, the protocol version and, for some
// names, a context; and a harness that has no handler for a name ends before sending anything.

import type { SpecVersion } from '../protocol/versions.js';
import type { ClientExit } from '../suites/ports/scripted-server.js';
import { officialContext } from '../suites/client/official-harness-map.js';
import type { OfficialClientScenario } from '../suites/client/official-scenario-names.js';

export const SCENARIO_VAR = 'MCP_CONFORMANCE_SCENARIO';
export const PROTOCOL_VERSION_VAR = 'MCP_CONFORMANCE_PROTOCOL_VERSION';
export const CONTEXT_VAR = 'MCP_CONFORMANCE_CONTEXT';

/** The variables one harness run gets for mcpspec's `scenario`, as the official suite sets them (the context only for a name it passes one with). */
export function harnessEnv(name: OfficialClientScenario, version: SpecVersion, scenario?: string): Record<string, string> {
  const context = officialContext(name, scenario);
  return { [SCENARIO_VAR]: name, [PROTOCOL_VERSION_VAR]: version, ...(context ? { [CONTEXT_VAR]: JSON.stringify(context) } : {}) };
}

/**
 * The harness did not run the scenario it was named: it ended on its own (not stopped at the timeout,
 * not killed by a signal) without sending anything. Its exit code does not matter: a harness with no
 * handler for a name usually exits 1, some exit 0.
 */
export function refusedScenario(exit: ClientExit, sentAnything: boolean): boolean {
  return !sentAnything && !exit.timedOut && exit.signal === null;
}
