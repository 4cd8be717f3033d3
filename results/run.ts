// The outcome of one run: verdicts per check, scenario outcomes, findings about the target or about
// mcpspec itself, and the events streamed while it ran. Plain data that reports render.

import type { Era, SpecVersion } from '../protocol/versions.js';
import type { CheckRecord, Role, TransportKind } from './check-record.js';
import type { Verdict } from './verdict.js';
import type { Recording } from './wire.js';

export interface CheckResult extends CheckRecord, Verdict {
  area: string;
  /** The scenario whose observations were judged, or `run` for an oracle over the whole recording. */
  scenario: string;
}

/** judged: at least one check passed, failed or warned; no-judgement: only skips or untestables. */
export type ScenarioStatus = 'judged' | 'no-judgement' | 'not-applicable' | 'aborted' | 'not-run';

/** The message of a scenario that ran only so that the selected oracles had its messages to judge. */
export const TRAFFIC_ONLY = "run for the oracles' traffic only";

/** The skip reason of a check that needs an MCP session in a run that could not have one (RunResult.limited says why). */
export const NO_SESSION = 'not run: no MCP session could be had with this server (see the end of the report)';

export interface ScenarioResult {
  id: string;
  title: string;
  status: ScenarioStatus;
  durationMs: number;
  message?: string;
}

/**
 * What was seen, said plainly. crash: the target process exited or the connection was lost.
 * hang: the target answered nothing, not even a fence request, for a whole timeout. slow: it
 * answered, but only after more than half the timeout (never a failure). precondition: something a
 * check needed did not happen (e.g. a DELETE failed), so the check is untestable. harness: mcpspec's
 * own failure. note: information. violation: a fuzz oracle broke (data.oracle), with its shrunk repro.
 */
export type FindingKind = 'crash' | 'hang' | 'slow' | 'precondition' | 'harness' | 'note' | 'violation';

export interface Finding {
  kind: FindingKind;
  message: string;
  scenario?: string;
  /** The last message mcpspec sent before a crash or hang (bounded). */
  lastSent?: string;
  /** The last lines the target printed on stderr (bounded). */
  stderrTail?: string;
  /** A saved reproduction (repro file path) when one was written. */
  repro?: string;
  data?: Record<string, unknown>;
}

export type TargetInfo =
  | { role: 'server'; transport: 'stdio'; command: string; args: string[] }
  /** start: the command mcpspec started the server with for the run (--start), `{port}` as given. */
  | { role: 'server'; transport: 'http'; url: string; start?: { command: string; args: string[] } }
  | { role: 'client'; transport: TransportKind; command: string; args: string[]; officialHarness?: true };

export interface EraInfo {
  era: Era;
  /** The version in use (negotiated, or chosen). */
  version: string;
  /** The version whose rules and schema judge it. */
  judgedBy: SpecVersion;
  detected: boolean;
  reason: string;
}

/** What the peer under test said about itself (server: initialize or server/discover). */
export interface PeerInfo {
  info?: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  instructions?: string;
}

export interface RunResult {
  role: Role;
  target: TargetInfo;
  era: EraInfo;
  peer: PeerInfo;
  seed: number;
  scenarios: ScenarioResult[];
  checks: CheckResult[];
  findings: Finding[];
  startedAt: string;
  durationMs: number;
  recording: Recording;
  /**
   * Only part of the suite could run, and why: the server requires authorization and mcpspec has
   * no credentials, so only the checks that need no session (auth.*) ran; the rest are skips.
   */
  limited?: string;
}

export type RunEvent =
  | { type: 'run-start'; role: Role; target: TargetInfo; era: EraInfo; peer: PeerInfo; seed: number }
  | { type: 'scenario-start'; id: string; title: string }
  | { type: 'check'; result: CheckResult }
  | { type: 'scenario-end'; result: ScenarioResult }
  | { type: 'finding'; finding: Finding };
