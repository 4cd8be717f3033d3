// Verdicts: what a check concluded and the evidence it rests on. Plain data, no behaviour.

export type Level = 'MUST' | 'SHOULD' | 'MAY';

/**
 * pass: the rule held on real evidence. fail: a MUST broken. warn: a SHOULD broken (fails only with
 * --strict). skip: not applicable to this target (capability not declared), with the reason.
 * untestable: applicable, but the target offered nothing to test it on. error: mcpspec itself
 * failed, never blamed on the target.
 */
export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'untestable' | 'error';
export const STATUSES: Status[] = ['pass', 'fail', 'warn', 'skip', 'untestable', 'error'];

/** A generated input that broke the rule, shrunk to the smallest failing case; `seed` + `path` replay it. */
export interface GeneratedCase {
  seed: number;
  /** fast-check's counterexample path (run index, then the shrink steps taken). */
  path: string;
  /** The shrunk input itself. */
  value: unknown;
  /** How many generated cases ran before shrinking. */
  runs: number;
  /** How many shrink steps made it smaller. */
  shrinks: number;
  /** Shrinking stopped at its budget, so a smaller case may exist. */
  shrinkBudgetReached?: boolean;
}

/** What a verdict rests on: the exchange, the pointer that broke, what was expected. */
export interface Evidence {
  what: string;
  request?: unknown;
  response?: unknown;
  http?: { status: number; contentType?: string; body?: string };
  pointer?: string;
  expected?: unknown;
  actual?: unknown;
  /** Recording sequence numbers of the messages this rests on. */
  seq?: number[];
}

export interface Verdict {
  status: Status;
  message: string;
  evidence: Evidence[];
  /** For properties over generated inputs: the shrunk failing case and how to replay it. */
  case?: GeneratedCase;
}
