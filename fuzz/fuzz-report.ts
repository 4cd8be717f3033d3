// A fuzz campaign as a RunResult, so report.json has the same Report v2 format as the server suite:
// one verdict per check that judged the sequences (the catalogue's stream oracles that apply, and
// the step rules the fuzzer judges on near-valid steps and notifications), fail or warn where a
// finding broke it, and one finding per de-duplicated bug with its seed, path and repro file.

import type { CheckResult, Finding, RunResult } from '../results/run.js';
import { areaOf } from '../results/check-record.js';
import { describeFuzzStep } from '../arbitraries/fuzz-sequences.js';
import { isModernVersion } from '../protocol/versions.js';
import { ruleOf, sequenceOracles } from './oracles.js';
import type { FuzzFinding, FuzzResult } from './server-campaign.js';

/** The checks a campaign judged: the stream oracles, and the step rules its profile reached. */
function judgedChecks(r: FuzzResult): string[] {
  const transport = r.target.transport;
  const ids = sequenceOracles(r.era.judgedBy, transport, r.peer.capabilities).map((c) => c.id);
  ids.push('jsonrpc.notification-no-response', 'robustness.rejects-near-valid');
  if (r.profile.tools.length) ids.push('tools.invalid-args-rejected');
  if (r.profile.prompts) ids.push('prompts.unknown', 'prompts.missing-args');
  if (transport === 'http' && isModernVersion(r.era.judgedBy)) ids.push('http.header-mismatch');
  for (const f of r.findings) ids.push(f.check);
  return [...new Set(ids)];
}

function checkOf(id: string, r: FuzzResult): CheckResult {
  const rule = ruleOf(id);
  const found = r.findings.filter((f) => f.check === id);
  const base = { ...rule, area: areaOf(id), scenario: 'fuzz' };
  if (r.runs === 0) return { ...base, status: 'untestable', message: 'no sequence ran', evidence: [] };
  if (found.length === 0) return { ...base, status: 'pass', message: `${r.runs} generated sequences (${r.steps} steps), none broke it`, evidence: [] };
  const first = found[0];
  return {
    ...base,
    status: rule.level === 'MUST' ? 'fail' : 'warn',
    message: `${found.length} finding(s); first: ${first.message} (in ${first.count} of ${r.runs} sequences; ${first.shrunk ? `shrunk to ${first.steps.length} step(s)` : `not shrunk, ${first.steps.length} step(s)`})`,
    evidence: found.slice(0, 5).map((f) => ({ what: `${f.method}: ${f.message}`, request: f.evidence.request, response: f.evidence.response, actual: f.evidence.actual, expected: f.evidence.expected })),
    case: { seed: first.seed, path: first.path, value: first.steps, runs: r.runs, shrinks: first.shrinks, shrinkBudgetReached: first.shrinkBudgetReached },
  };
}

export function findingOf(f: FuzzFinding): Finding {
  const out: Finding = {
    kind: f.oracle === 'crash' || f.oracle === 'hang' ? f.oracle : 'violation',
    message: f.message,
    scenario: 'fuzz',
    data: {
      check: f.check,
      requirements: f.requirements,
      spec: f.spec,
      oracle: f.oracle,
      method: f.method,
      level: f.level,
      count: f.count,
      sequence: f.steps.map(describeFuzzStep),
      seed: f.seed,
      path: f.path,
      shrunk: f.shrunk,
      ...(f.shrinkNote ? { shrinkNote: f.shrinkNote } : {}),
      reproduced: f.reproduced,
    },
  };
  if (f.sent.length) out.lastSent = JSON.stringify(f.sent[f.sent.length - 1]).slice(0, 2000);
  if (f.evidence.stderrTail) out.stderrTail = f.evidence.stderrTail;
  if (f.repro) out.repro = f.repro;
  return out;
}

export function fuzzRunResult(r: FuzzResult): RunResult {
  const findings: Finding[] = [...r.notes.map((message): Finding => ({ kind: 'note', message })), ...r.findings.map(findingOf)];
  if (r.startFailures) findings.push({ kind: 'precondition', message: `${r.startFailures} sequence(s) could not start a fresh target (not judged)` });
  if (r.stopped) findings.push({ kind: 'note', message: `the run ${r.stopped}: sequences and shrinking under way then were stopped` });
  return {
    role: 'server',
    target: r.target,
    era: r.era,
    peer: r.peer,
    seed: r.seed,
    scenarios: [{ id: 'fuzz', title: 'fuzz campaign: generated sequences of steps', status: r.runs ? 'judged' : 'no-judgement', durationMs: r.durationMs, message: `${r.runs} sequences, ${r.steps} steps` }],
    checks: judgedChecks(r).map((id) => checkOf(id, r)),
    findings,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    recording: r.recording,
  };
}
