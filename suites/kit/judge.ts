// Judge helpers: the "every X has P; show the first that do not" loop and shared preconditions, so a
// judge says what it judges and stays a pure function of what was observed.

import type { Evidence } from '../../results/verdict.js';
import { holds, untestable, violated, type JudgeContext, type Judgement } from './check.js';

/** How many offenders a violation shows as evidence. */
export const SHOWN = 3;

/** The offenders a violation shows: the first SHOWN of them. */
export function firstOffenders<T>(bad: readonly T[]): T[] {
  return bad.slice(0, SHOWN);
}

/** The rule `every` judges items by; the messages are the judge's own. */
export interface EveryRule<T> {
  /** Nothing to judge: why (an untestable verdict), or the judgement to give then (a skip, say). */
  none: string | Judgement;
  /** Whether an item breaks the rule. */
  offends: (item: T) => boolean;
  /** The violation's message, given the offenders (at least one, in order) and every item judged. */
  violated: (bad: T[], all: readonly T[]) => string;
  /** The evidence of one offender (the first SHOWN offenders are shown). */
  evidence: (item: T) => Evidence;
  /** The message when no item offends, or the judgement to give then. */
  holds: (all: readonly T[]) => string | Judgement;
}

/** Judges every item: `none` when there is none, violated with the first offenders' evidence, else holds. */
export function every<T>(items: readonly T[], rule: EveryRule<T>): Judgement {
  if (items.length === 0) return typeof rule.none === 'string' ? untestable(rule.none) : rule.none;
  const bad = items.filter((item) => rule.offends(item));
  if (bad.length) return violated(rule.violated(bad, items), firstOffenders(bad).map((item) => rule.evidence(item)));
  const passed = rule.holds(items);
  return typeof passed === 'string' ? holds(passed) : passed;
}

/** What a judge needs before it can judge: undefined when met, else the judgement to give instead (skip or untestable). */
export type Precondition<O> = (observed: O, ctx: JudgeContext) => Judgement | undefined;

/** A judge behind preconditions: the first one not met gives the judgement, else `judge` does. */
export function gated<O>(preconditions: readonly Precondition<O>[], judge: (observed: O, ctx: JudgeContext) => Judgement): (observed: O, ctx: JudgeContext) => Judgement {
  return (observed, ctx) => {
    for (const precondition of preconditions) {
      const unmet = precondition(observed, ctx);
      if (unmet) return unmet;
    }
    return judge(observed, ctx);
  };
}
