// A schema differential: values generated from one document's definition are judged by the other
// document's definition of the same name, both ways. A value one accepts and the other refuses is a
// disagreement; disagreements are grouped by the refusing side's error (one root cause, one row) and
// one witness per group is shrunk along fast-check's shrink tree.

import type fc from 'fast-check';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { SchemaLookupError, type SchemaDocument } from '../protocol/schema-registry.js';
import { NotMutableError, type ViolationLabel } from './near-valid.js';
import { Rng } from './rng.js';
import { definitionArbitraries } from './schema-arbitraries.js';
import type { GenOptions } from './valid.js';

export type Side = 'A' | 'B';

/** Which definition of A is compared with which of B; `name` is how it is reported. */
export interface DefinitionPair {
  name: string;
  a: string;
  b: string;
}

export interface DiffOptions {
  seed: number;
  /** Values generated per definition per side, split between valid and near-valid ones (default 100). */
  n?: number;
  /** Only these pairs (default: every definition name both documents hold, in A's order). */
  pairs?: DefinitionPair[];
  /** Shrink candidates judged per witness and stage at most (default 500): shrinking always ends. */
  maxShrinks?: number;
  /** Generator options per side (e.g. the spec version, for realistic protocolVersion strings). */
  generation?: Partial<Record<Side, GenOptions>>;
}

/** The refusing side's error, as ajv reports it. */
export interface RefusalError {
  instancePath: string;
  keyword: string;
  message: string;
  schemaPath: string;
}

/** One root cause of disagreement in one definition, with a shrunk witness. */
export interface Disagreement {
  definition: string;
  accepts: Side;
  refuses: Side;
  witness: unknown;
  error: RefusalError;
  /** Where the witness came from: which side's generator, valid or near-valid (then with its break). */
  origin: { side: Side; kind: 'valid' | 'near-valid'; label?: ViolationLabel };
  /** How many generated values disagreed for this cause. */
  count: number;
  /** Shrink steps taken (accepted smaller candidates). */
  shrinks: number;
}

export interface DefinitionDiff {
  definition: string;
  /** Values generated and judged by both sides. */
  tried: number;
  /** Of those, how many disagreed (before grouping). */
  disagreements: number;
  causes: Disagreement[];
  /** Sides whose near-valid generator made no value, or gave up part way (the definition accepts every value, or no mutation was confirmed). */
  validOnly: Side[];
}

export interface SkippedDefinition {
  definition: string;
  reason: string;
}

export interface DiffResult {
  compared: DefinitionDiff[];
  skipped: SkippedDefinition[];
}

/** Names of the definitions both documents hold, in A's order. */
export function sharedDefinitions(a: SchemaDocument, b: SchemaDocument): string[] {
  const inB = new Set(b.definitions());
  return a.definitions().filter((d) => inB.has(d));
}

export function diffSchemas(a: SchemaDocument, b: SchemaDocument, options: DiffOptions): DiffResult {
  const pairs = options.pairs ?? sharedDefinitions(a, b).map((d) => ({ name: d, a: d, b: d }));
  const result: DiffResult = { compared: [], skipped: [] };
  for (const pair of pairs) {
    try {
      result.compared.push(diffDefinition({ A: a, B: b }, pair, options));
    } catch (e) {
      // A generator or validator that cannot be built (unsupported schema, dangling $ref, no value
      // satisfies it) costs this definition only.
      result.skipped.push({ definition: pair.name, reason: describe(e) });
    }
  }
  return result;
}

interface Case {
  value: unknown;
  label?: ViolationLabel;
}

interface Verdict {
  refuses: Side;
  error: RefusalError;
  key: string;
}

interface Group {
  verdict: Verdict;
  count: number;
  arb: fc.Arbitrary<Case>;
  first: fc.Value<Case>;
  origin: { side: Side; kind: 'valid' | 'near-valid' };
}

class SideFailure extends Error {
  override name = 'SideFailure';
}

function diffDefinition(docs: Record<Side, SchemaDocument>, pair: DefinitionPair, options: DiffOptions): DefinitionDiff {
  const refs: Record<Side, string> = { A: pair.a, B: pair.b };
  const checks = {} as Record<Side, ValidateFunction>;
  for (const side of SIDES) checks[side] = onSide(side, 'validator', () => docs[side].validator(refs[side]));
  const judge = (value: unknown): Verdict | undefined => {
    const okA = checks.A(value) as boolean;
    const errorsA = [...(checks.A.errors ?? [])];
    const okB = checks.B(value) as boolean;
    if (okA === okB) return undefined;
    const refuses: Side = okA ? 'B' : 'A';
    const error = mainError(refuses === 'A' ? errorsA : (checks.B.errors ?? []));
    return { refuses, error, key: `${refuses} ${normalisePath(error.instancePath)} ${error.keyword}` };
  };

  const n = options.n ?? 100;
  const groups = new Map<string, Group>();
  const out: DefinitionDiff = { definition: pair.name, tried: 0, disagreements: 0, causes: [], validOnly: [] };
  for (const side of SIDES) {
    const arbs = onSide(side, 'generator', () => definitionArbitraries(docs[side], refs[side], options.generation?.[side] ?? {}));
    const sources: { kind: 'valid' | 'near-valid'; arb: fc.Arbitrary<Case>; count: number }[] = [];
    let near: fc.Arbitrary<Case> | undefined;
    try {
      near = arbs.nearValid;
    } catch (e) {
      if (!(e instanceof NotMutableError)) throw new SideFailure(`${side}'s near-valid generator: ${describe(e)}`);
      out.validOnly.push(side);
    }
    const nearCount = near ? Math.floor(n / 2) : 0;
    sources.push({ kind: 'valid', arb: arbs.valid.map((value) => ({ value })), count: n - nearCount });
    if (near) sources.push({ kind: 'near-valid', arb: near, count: nearCount });
    for (const source of sources) {
      // One stream per definition, side and kind: a run restricted to some definitions sees the same values.
      const random = new Rng(hash(`${options.seed}\0${pair.name}\0${side}\0${source.kind}`)).asFastCheck();
      for (let i = 0; i < source.count; i++) {
        let generated: fc.Value<Case>;
        try {
          // Bias as fast-check's runner does: small and boundary values early, the whole range later.
          generated = source.arb.generate(random, runBias(i));
        } catch (e) {
          // The near-valid generator gives up when no mutation of its valid values is confirmed: this
          // side then contributes the values it made so far.
          if (source.kind === 'near-valid' && e instanceof NotMutableError) {
            out.validOnly.push(side);
            break;
          }
          throw new SideFailure(`${side}'s ${source.kind} generator: ${describe(e)}`);
        }
        out.tried++;
        const verdict = judge(generated.value.value);
        if (!verdict) continue;
        out.disagreements++;
        const g = groups.get(verdict.key);
        if (g) g.count++;
        else groups.set(verdict.key, { verdict, count: 1, arb: source.arb, first: generated, origin: { side, kind: source.kind } });
      }
    }
  }

  for (const g of groups.values()) {
    // Shrink only towards values that disagree for the same cause, so a row's witness shows its own cause.
    const sameCause = (v: unknown) => judge(v)?.key === g.verdict.key;
    const max = options.maxShrinks ?? 500;
    const shrunk = shrink(g.arb, g.first, (c) => sameCause(c.value), { left: max });
    const pruned = prune(shrunk.value.value, sameCause, { left: max });
    const verdict = judge(pruned.value)!;
    const label = shrunk.value.label;
    out.causes.push({
      definition: pair.name,
      accepts: verdict.refuses === 'A' ? 'B' : 'A',
      refuses: verdict.refuses,
      witness: pruned.value,
      error: verdict.error,
      origin: { ...g.origin, ...(label ? { label } : {}) },
      count: g.count,
      shrinks: shrunk.steps + pruned.steps,
    });
  }
  return out;
}

const SIDES: Side[] = ['A', 'B'];

function onSide<T>(side: Side, what: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    throw new SideFailure(`${side}'s ${what}: ${describe(e)}`);
  }
}

/** How many more candidates a shrinking stage may judge, so that a witness always ends. */
interface Budget {
  left: number;
}

/**
 * Greedy descent of the shrink tree, as fast-check shrinks: take the first smaller candidate that still
 * satisfies `keep`, then look below it.
 */
export function shrink<T>(arb: fc.Arbitrary<T>, start: fc.Value<T>, keep: (v: T) => boolean, budget: Budget): { value: T; steps: number } {
  let current = start;
  let steps = 0;
  try {
    descend: while (budget.left > 0) {
      for (const candidate of arb.shrink(current.value_, current.context)) {
        if (budget.left-- <= 0) break descend;
        if (keep(candidate.value)) {
          current = candidate;
          steps++;
          continue descend;
        }
      }
      break;
    }
  } catch {
    // A generator that gives up while shrinking (the near-valid filter finding no mutation) ends the
    // descent; the smallest value so far stands.
  }
  return { value: current.value, steps };
}

/**
 * The error that names the cause: the deepest one (within an anyOf, the branch that got furthest). At
 * equal depth a plain keyword beats the combinator reporting the same failure, and beats a `const`
 * (a union's other branches fail on their tag, `type: "text"`, beside the real cause).
 */
export function mainError(errors: ErrorObject[]): RefusalError {
  const rank = (e: ErrorObject) => [e.instancePath === '' ? 0 : e.instancePath.split('/').length - 1, COMBINATORS.has(e.keyword) ? 0 : 1, e.keyword === 'const' ? 0 : 1];
  let best: ErrorObject | undefined;
  let bestRank: number[] = [];
  for (const e of errors) {
    const r = rank(e);
    const i = r.findIndex((x, j) => x !== bestRank[j]);
    if (!best || (i >= 0 && r[i] > bestRank[i])) [best, bestRank] = [e, r];
  }
  if (!best) return { instancePath: '', keyword: 'unknown', message: 'refused without an error', schemaPath: '' };
  const extra = (best.params as { additionalProperty?: string }).additionalProperty;
  const message = extra === undefined ? (best.message ?? '') : `${best.message} "${extra}"`;
  return { instancePath: best.instancePath, keyword: best.keyword, message, schemaPath: best.schemaPath };
}

/**
 * Drop object members and array items one at a time while `keep` holds. fast-check's shrinkers do not
 * remove what a `oneof` or `map` added (the generators' occasional extra member), nor move a value from
 * one branch of a union to a smaller one.
 */
export function prune(value: unknown, keep: (v: unknown) => boolean, budget: Budget): { value: unknown; steps: number } {
  let current = value;
  let steps = 0;
  search: while (budget.left > 0) {
    // Outer members first: dropping a whole subtree saves judging its parts.
    for (const path of containedPaths(current)) {
      if (budget.left-- <= 0) break search;
      const candidate = without(current, path);
      if (keep(candidate)) {
        current = candidate;
        steps++;
        continue search;
      }
    }
    break;
  }
  return { value: current, steps };
}

/** Paths of every member and item inside `v`, breadth first. */
function containedPaths(v: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const queue: [unknown, (string | number)[]][] = [[v, []]];
  for (let i = 0; i < queue.length; i++) {
    const [node, at] = queue[i];
    if (node === null || typeof node !== 'object') continue;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, j) => j) : Object.keys(node);
    for (const k of keys) {
      out.push([...at, k]);
      queue.push([(node as Record<string | number, unknown>)[k], [...at, k]]);
    }
  }
  return out;
}

/** A copy of `v` without the member or item at `path`. */
function without(v: unknown, path: (string | number)[]): unknown {
  const [head, ...rest] = path;
  if (Array.isArray(v)) {
    return rest.length === 0 ? v.filter((_, j) => j !== head) : v.map((x, j) => (j === head ? without(x, rest) : x));
  }
  const o = v as Record<string, unknown>;
  if (rest.length === 0) return Object.fromEntries(Object.entries(o).filter(([k]) => k !== head));
  return { ...o, [head]: without(o[head], rest) };
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'false schema']);

/** Array indices become `*`, so the same failure in item 0 and item 3 is one cause. */
export function normalisePath(p: string): string {
  return p.replace(/\/\d+(?=\/|$)/g, '/*');
}

function runBias(i: number): number {
  return 2 + Math.floor(Math.log10(i + 1));
}

/** FNV-1a, 32 bits: a seed per stream from a string. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function describe(e: unknown): string {
  if (e instanceof SideFailure) return e.message;
  if (e instanceof SchemaLookupError || e instanceof NotMutableError) return e.message;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
