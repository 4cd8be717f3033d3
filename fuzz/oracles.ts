// What a fuzz sequence is judged by: the server catalogue's own stream oracles (every one that
// applies to the version, transport and declared capabilities), run over the sequence's traffic,
// plus the few rules that need the step that was sent (a near-valid step served, a notification
// answered), each named by the suite check that judges the same rule. So a fuzz finding is a verdict
// of a check: its id, requirement IDs, level and spec section come from the catalogue record.

import type { SpecVersion } from '../protocol/versions.js';
import type { CheckRecord, TransportKind } from '../results/check-record.js';
import type { Evidence } from '../results/verdict.js';
import { CHECKS, ORACLES as STREAM_ORACLES } from '../suites/catalogue.js';
import { belongsTo, skipReason, type Check } from '../suites/kit/check.js';
import type { RunObservations } from '../suites/kit/observations.js';

/** Short names of the rules fuzz findings break most often (the check id otherwise). */
const SHORT_NAMES: Record<string, string> = {
  'robustness.stays-up': 'crash',
  'robustness.keeps-answering': 'hang',
  'jsonrpc.answers-requests': 'unanswered',
  'wire.schema': 'schema',
  'jsonrpc.id-echo': 'id-mismatch',
  'http.sse-ends-after-response': 'sse-open',
  'jsonrpc.notification-no-response': 'notification-answered',
  'robustness.rejects-near-valid': 'near-valid-served',
  'tools.invalid-args-rejected': 'near-valid-served',
  'prompts.missing-args': 'near-valid-served',
  'prompts.unknown': 'near-valid-served',
  'http.header-mismatch': 'near-valid-served',
};

/** The short name of a check's rule in fuzz findings: crash, hang, schema, ... or the check id. */
export type OracleId = string;

export function shortName(checkId: string): OracleId {
  return SHORT_NAMES[checkId] ?? checkId;
}

const BY_ID = new Map(CHECKS.map((c) => [c.id, c]));

/** The catalogue record of a check the fuzzer names (an unknown id is mcpspec's own bug). */
export function ruleOf(checkId: string): CheckRecord {
  const c = BY_ID.get(checkId);
  if (!c) throw new Error(`fuzz: no check ${checkId} in the catalogue`);
  return c;
}

/** The stream oracles that judge a sequence against this server. */
export function sequenceOracles(version: SpecVersion, transport: TransportKind, capabilities: Record<string, unknown>): Check<RunObservations>[] {
  return STREAM_ORACLES.filter((c) => belongsTo(c, 'server', version, transport) && !skipReason(c, capabilities));
}

/** One violated oracle: its message and evidence. */
export interface OracleViolation {
  check: string;
  message: string;
  evidence: Evidence[];
}

/** Judge a sequence's traffic with the stream oracles; the violated ones. */
export function judgeSequence(oracles: Check<RunObservations>[], observed: RunObservations, ctx: { era: 'legacy' | 'modern'; capabilities: Record<string, unknown> }): OracleViolation[] {
  const out: OracleViolation[] = [];
  for (const c of oracles) {
    const j = c.judge(observed, { era: ctx.era, version: observed.version, transport: observed.transport, capabilities: ctx.capabilities });
    if (j.outcome === 'violated') out.push({ check: c.id, message: j.message, evidence: j.evidence });
  }
  return out;
}
