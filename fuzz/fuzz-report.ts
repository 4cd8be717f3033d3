// A fuzz campaign as a RunResult, so report.json has the same Report v2 format as the server suite:
// one oracle check per fuzz oracle (pass, fail, warn) and one finding per de-duplicated bug, with the
// path of its repro file.

import { SPEC } from '../protocol/spec-links.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import type { CheckResult, Finding, RunResult } from '../results/run.js';
import { describeFuzzStep } from '../arbitraries/fuzz-sequences.js';
import { ORACLES, type OracleId } from './run-sequence.js';
import type { FuzzFinding, FuzzResult } from './server-campaign.js';

function checkOf(oracle: OracleId, r: FuzzResult): CheckResult {
  const { level, title } = ORACLES[oracle];
  const found = r.findings.filter((f) => f.oracle === oracle);
  const base = { id: `fuzz.${oracle}`, title, requirements: [], level, versions: ALL_VERSIONS, role: 'server' as const, requires: {}, spec: SPEC.basic26, kind: 'oracle' as const, area: 'fuzz', scenario: 'fuzz' };
  if (r.runs === 0) return { ...base, status: 'untestable', message: 'no sequence ran', evidence: [] };
  if (found.length === 0) return { ...base, status: 'pass', message: `${r.runs} sequences (${r.steps} steps), none broke it`, evidence: [] };
  const first = found[0];
  return {
    ...base,
    status: level === 'MUST' ? 'fail' : 'warn',
    message: `${found.length} finding(s); first: ${first.message} (in ${first.count} of ${r.runs} sequences; shrunk to ${first.steps.length} step(s))`,
    evidence: found.slice(0, 5).map((f) => ({ what: f.message, request: f.evidence.request, actual: f.evidence.actual, expected: f.evidence.expected })),
    case: { seed: first.seed, path: first.path, value: first.steps, runs: r.runs, shrinks: first.shrinks, shrinkBudgetReached: first.shrinkBudgetReached },
  };
}

export function findingOf(f: FuzzFinding): Finding {
  const out: Finding = {
    kind: f.oracle === 'crash' || f.oracle === 'hang' ? f.oracle : 'violation',
    message: f.message,
    scenario: 'fuzz',
    data: { oracle: f.oracle, method: f.method, level: f.level, count: f.count, sequence: f.steps.map(describeFuzzStep), seed: f.seed, path: f.path, reproduced: f.reproduced },
  };
  if (f.sent.length) out.lastSent = JSON.stringify(f.sent[f.sent.length - 1]).slice(0, 2000);
  if (f.evidence.stderrTail) out.stderrTail = f.evidence.stderrTail;
  if (f.repro) out.repro = f.repro;
  return out;
}

export function fuzzRunResult(r: FuzzResult): RunResult {
  const findings: Finding[] = [...r.notes.map((message): Finding => ({ kind: 'note', message })), ...r.findings.map(findingOf)];
  if (r.startFailures) findings.push({ kind: 'precondition', message: `${r.startFailures} sequence(s) could not start a fresh target (not judged)` });
  return {
    role: 'server',
    target: r.target,
    era: r.era,
    peer: r.peer,
    seed: r.seed,
    scenarios: [{ id: 'fuzz', title: 'fuzz campaign: generated sequences of steps', status: r.runs ? 'judged' : 'no-judgement', durationMs: r.durationMs, message: `${r.runs} sequences, ${r.steps} steps` }],
    checks: (Object.keys(ORACLES) as OracleId[]).map((o) => checkOf(o, r)),
    findings,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    recording: r.recording,
  };
}
