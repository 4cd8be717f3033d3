// A check = its record (results/check-record.ts) + a pure judgement over what was observed, bound
// either to a scenario (its observations) or to the whole run (a stream oracle over every message).

import type { CheckRecord, Requires, Role } from '../../results/check-record.js';
import type { Evidence, Level, Verdict } from '../../results/verdict.js';
import type { Era, SpecVersion } from '../../protocol/versions.js';
import type { TransportKind } from '../../results/check-record.js';
import type { RunObservations } from './observations.js';
import type { Scenario } from './scenario.js';

/** A judgement before the check's level turns a violation into fail or warn. */
export type Judgement =
  | { outcome: 'holds'; message: string; evidence?: Evidence[] }
  | { outcome: 'violated'; message: string; evidence: Evidence[]; case?: Verdict['case'] }
  | { outcome: 'skip' | 'untestable'; message: string };

export const holds = (message: string, evidence: Evidence[] = []): Judgement => ({ outcome: 'holds', message, evidence });
export const violated = (message: string, evidence: Evidence[], generated?: Verdict['case']): Judgement =>
  generated ? { outcome: 'violated', message, evidence, case: generated } : { outcome: 'violated', message, evidence };
export const skip = (message: string): Judgement => ({ outcome: 'skip', message });
export const untestable = (message: string): Judgement => ({ outcome: 'untestable', message });

export interface JudgeContext {
  era: Era;
  /** The version whose rules judge the run. */
  version: SpecVersion;
  transport: TransportKind;
  /** What the peer under test declared. */
  capabilities: Record<string, unknown>;
}

/** A check as an area file writes it: role defaults to `server`, requires to nothing. */
export interface CheckDefinition<O> {
  id: string;
  title: string;
  requirements: string[];
  level: Level;
  versions: SpecVersion[];
  role?: Role;
  requires?: Requires;
  spec: string;
  judge(observed: O, ctx: JudgeContext): Judgement;
}

export interface Check<O = any> extends CheckRecord {
  judge(observed: O, ctx: JudgeContext): Judgement;
  /** The scenario whose observations it judges; absent for oracles. */
  scenario?: Scenario<O>;
}

function record<O>(d: CheckDefinition<O>, kind: CheckRecord['kind']): Omit<Check<O>, 'scenario'> {
  return {
    id: d.id, title: d.title, requirements: d.requirements, level: d.level, versions: d.versions,
    role: d.role ?? 'server', requires: d.requires ?? {}, spec: d.spec, kind, judge: d.judge,
  };
}

/** A check judged on what one scenario observed. */
export function check<O>(scenario: Scenario<O>, d: CheckDefinition<O>): Check<O> {
  return { ...record(d, 'scenario'), scenario };
}

/** A stream oracle: an invariant judged over every message of the run. */
export function oracle(d: CheckDefinition<RunObservations>): Check<RunObservations> {
  return record(d, 'oracle');
}

/** The record of a check without its judgement (what catalogues and reports carry). */
export function checkRecord(c: CheckRecord): CheckRecord {
  const { id, title, requirements, level, versions, role, requires, spec, kind } = c;
  return { id, title, requirements, level, versions, role, requires, spec, kind };
}

/** Turn a judgement into a verdict by the check's level. */
export function verdictOf(info: CheckRecord, j: Judgement): Verdict {
  if (j.outcome === 'holds') return { status: 'pass', message: j.message, evidence: j.evidence ?? [] };
  if (j.outcome === 'violated') {
    const v: Verdict = { status: info.level === 'MUST' ? 'fail' : 'warn', message: j.message, evidence: j.evidence };
    if (j.case) v.case = j.case;
    return v;
  }
  return { status: j.outcome, message: j.message, evidence: [] };
}

/** Whether a check belongs to a run of this role, version and transport at all. */
export function belongsTo(c: CheckRecord, role: Role, version: SpecVersion, transport: TransportKind): boolean {
  return c.role === role && c.versions.includes(version) && (!c.requires.transports || c.requires.transports.includes(transport));
}

/** Why a check that belongs to the run cannot apply to this peer (capability gating), or undefined. */
export function skipReason(c: CheckRecord, capabilities: Record<string, unknown>): string | undefined {
  const peer = c.role === 'server' ? 'server' : 'client';
  const { capabilities: all, anyCapability, extensions } = c.requires;
  const missing = (all ?? []).filter((k) => !(k in capabilities));
  if (missing.length) return `the ${peer} does not declare the ${missing.join(', ')} capabilit${missing.length > 1 ? 'ies' : 'y'}`;
  if (anyCapability && !anyCapability.some((k) => k in capabilities)) return `the ${peer} declares none of the ${anyCapability.join(', ')} capabilities`;
  const ext = capabilities.extensions;
  const declared = typeof ext === 'object' && ext !== null ? (ext as Record<string, unknown>) : {};
  const noExt = (extensions ?? []).filter((k) => !(k in declared));
  if (noExt.length) return `the ${peer} does not declare the ${noExt.join(', ')} extension${noExt.length > 1 ? 's' : ''}`;
  return undefined;
}
