import type { Era } from '../runner/session-types.js';

export type Level = 'MUST' | 'SHOULD' | 'MAY';
export type SpecVersion = '2025-06-18' | '2025-11-25' | '2026-07-28';
export const ALL_VERSIONS: SpecVersion[] = ['2025-06-18', '2025-11-25', '2026-07-28'];
export const LEGACY: SpecVersion[] = ['2025-06-18', '2025-11-25'];
export const MODERN: SpecVersion[] = ['2026-07-28'];

/**
 * pass: the rule held on real evidence. fail: a MUST broken. warn: a SHOULD broken (fails only with
 * --strict). skip: not applicable to this target (capability not declared, other transport).
 * untestable: applicable, but the target offered nothing to test it on. error: mcpspec itself
 * failed, never blamed on the target.
 */
export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'untestable' | 'error';

/** What a verdict rests on: the exchange, the pointer that broke, what was expected. */
export interface Evidence {
  what: string;
  request?: unknown;
  response?: unknown;
  http?: { status: number; contentType?: string; body?: string };
  pointer?: string;
  expected?: unknown;
  actual?: unknown;
}

export interface Verdict {
  status: Status;
  message: string;
  evidence: Evidence[];
}

/** A judgement before the check's level turns a violation into fail or warn. */
export type Judgement =
  | { outcome: 'holds'; message: string; evidence?: Evidence[] }
  | { outcome: 'violated'; message: string; evidence: Evidence[] }
  | { outcome: 'skip' | 'untestable'; message: string };

export const holds = (message: string, evidence: Evidence[] = []): Judgement => ({ outcome: 'holds', message, evidence });
export const violated = (message: string, evidence: Evidence[]): Judgement => ({ outcome: 'violated', message, evidence });
export const skip = (message: string): Judgement => ({ outcome: 'skip', message });
export const untestable = (message: string): Judgement => ({ outcome: 'untestable', message });

export interface CheckInfo {
  /** Stable id, `area.rule`; also the reference fixture's fault id that breaks exactly this rule. */
  id: string;
  title: string;
  requirements: string[];
  level: Level;
  versions: SpecVersion[];
  /** Only on these transports (default both). */
  transports?: ('stdio' | 'http')[];
  spec: string;
}

/** A check: a record plus a pure judgement over what a scenario observed. */
export interface Check<O> extends CheckInfo {
  judge(observed: O, ctx: JudgeContext): Judgement;
}

export interface JudgeContext {
  era: Era;
  version: string;
  transport: 'stdio' | 'http';
  capabilities: Record<string, unknown>;
}

/** The record of a check without its judgement (what catalogues and reports carry). */
export function checkInfo(c: CheckInfo): CheckInfo {
  const { id, title, requirements, level, versions, transports, spec } = c;
  return { id, title, requirements, level, versions, transports, spec };
}

export function check<O>(c: Check<O>): Check<O> {
  return c;
}

/** Turn a judgement into a verdict by the check's level. */
export function verdictOf(info: CheckInfo, j: Judgement): Verdict {
  if (j.outcome === 'holds') return { status: 'pass', message: j.message, evidence: j.evidence ?? [] };
  if (j.outcome === 'violated') return { status: info.level === 'MUST' ? 'fail' : 'warn', message: j.message, evidence: j.evidence };
  return { status: j.outcome, message: j.message, evidence: [] };
}

export function appliesTo(info: CheckInfo, version: string, transport: 'stdio' | 'http'): boolean {
  return info.versions.includes(version as SpecVersion) && (!info.transports || info.transports.includes(transport));
}
