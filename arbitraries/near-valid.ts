import fc from 'fast-check';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { escapePointer, type SchemaDocument, type SchemaNode } from '../protocol/schema-registry.js';
import { normalize, propertySchemas, type Flat, type JsonType, type Norm, type Union } from './normalize.js';
import { brokenFormatValues } from './string-formats.js';
import type { ValidBuilder } from './valid.js';

/** Where and how a near-valid value breaks its schema. `path` and `keyword` are what ajv reports. */
export interface ViolationLabel {
  /** JSON pointer of the value whose constraint is broken (for `required`, the object). */
  path: string;
  /** The JSON Schema keyword broken, as ajv names it (`required`, `type`, `maximum`, `anyOf`, ...). */
  keyword: string;
  /** What was done, in words. */
  mutation: string;
}

export interface NearValid<T = unknown> {
  value: T;
  label: ViolationLabel;
}

export class NotMutableError extends Error {
  override name = 'NotMutableError';
}

type Op = { kind: 'set'; value: unknown } | { kind: 'delete' };

interface Candidate {
  /** Path segments to the location the op changes. */
  at: (string | number)[];
  op: Op;
  label: ViolationLabel;
}

export const SAMPLE_FOR_TYPE: Record<JsonType, unknown> = {
  null: null,
  boolean: true,
  integer: 7,
  number: 2.5,
  string: 'mcpspec-wrong-type',
  array: [],
  object: {},
};
export const WRONG_TYPE_ORDER: JsonType[] = ['string', 'integer', 'boolean', 'object', 'array', 'number'];

/**
 * Turns valid values into near-valid ones: one constraint of the schema broken at one location,
 * labelled with the JSON pointer and keyword ajv reports for it.
 *
 * Mutations are planned from the schema; each planned one is then confirmed with ajv (the value
 * must fail, ajv must report the label's keyword at the label's path, and every other error must
 * lie on the same branch of the document). A mutation an `anyOf` sibling absorbs is discarded and
 * the next planned one is tried.
 */
export class NearValidBuilder {
  private readonly examples = new Map<Norm, unknown>();
  /** Per union (normalize() caches them), a validator per branch: built once, not per value. */
  private readonly branchChecks = new WeakMap<Union, ValidateFunction[]>();

  constructor(
    readonly doc: SchemaDocument,
    readonly valid: ValidBuilder,
  ) {}

  arbitrary(nodes: SchemaNode[]): fc.Arbitrary<NearValid> {
    const root = normalize(this.doc, nodes);
    if (!canBreak(root)) {
      throw new NotMutableError('the schema accepts every JSON value, so no value can break it');
    }
    const check = this.doc.validatorForNodes(nodes);
    let misses = 0;
    return fc
      .tuple(this.valid.arbitrary(nodes), fc.nat())
      .map(([value, pick]) => this.mutate(value, root, check, pick))
      .filter((x): x is NearValid => {
        if (x) {
          misses = 0;
          return true;
        }
        // A schema whose only constraints sit where no mutation reaches would loop forever here.
        if (++misses > 200) throw new NotMutableError('no mutation of 200 consecutive valid values was confirmed by ajv');
        return false;
      });
  }

  /** One near-valid variant of `value`, or undefined when no planned mutation is confirmed. */
  mutate(value: unknown, root: Norm, check: ValidateFunction, pick: number): NearValid | undefined {
    const candidates: Candidate[] = [];
    this.plan(value, root, [], candidates);
    const n = candidates.length;
    for (let i = 0; i < n; i++) {
      const c = candidates[(pick + i) % n];
      const mutated = apply(value, c.at, c.op);
      if (confirms(check, mutated, c.label)) return { value: mutated, label: c.label };
    }
    return undefined;
  }

  /** List every mutation the schema suggests for `value` at `at`. */
  private plan(value: unknown, norm: Norm, at: (string | number)[], out: Candidate[]): void {
    if (norm.kind === 'union') return this.planUnion(value, norm, at, out);
    this.planFlat(value, norm, at, out);
  }

  private planUnion(value: unknown, u: Union, at: (string | number)[], out: Candidate[]): void {
    const path = pointer(at);
    const accepted = acceptedTypes(u);
    const wrong = WRONG_TYPE_ORDER.find((t) => accepted && !accepted.has(t)) ?? (accepted && !accepted.has('null') ? 'null' : undefined);
    if (wrong) {
      out.push({ at, op: { kind: 'set', value: SAMPLE_FOR_TYPE[wrong] }, label: { path, keyword: u.mode, mutation: `replaced by a ${wrong}, which matches no branch` } });
    }
    let checks = this.branchChecks.get(u);
    if (!checks) this.branchChecks.set(u, (checks = u.rawBranches.map((b) => this.doc.validatorForNodes([...u.sources, b]))));
    const branch = checks.findIndex((check) => check(value));
    if (branch < 0) return;
    if (u.mode === 'oneOf' && isPlainObject(value)) {
      // Make the object satisfy a second branch too, by adding that branch's required content.
      u.branches.forEach((other, j) => {
        if (j === branch) return;
        const example = this.example(other);
        if (isPlainObject(example)) {
          out.push({ at, op: { kind: 'set', value: { ...example, ...value } }, label: { path, keyword: 'oneOf', mutation: `also made to match oneOf branch ${j}` } });
        }
      });
    }
    this.plan(value, u.branches[branch], at, out);
  }

  private planFlat(value: unknown, f: Flat, at: (string | number)[], out: Candidate[]): void {
    const path = pointer(at);
    const set = (v: unknown, keyword: string, mutation: string): void => {
      out.push({ at, op: { kind: 'set', value: v }, label: { path, keyword, mutation } });
    };
    if (f.types) {
      if (!f.types.has('null')) set(null, 'type', 'null where the schema does not allow null');
      const wrong = WRONG_TYPE_ORDER.find((t) => !f.types!.has(t) && !(t === 'integer' && f.types!.has('number')) && t !== 'null');
      if (wrong) set(SAMPLE_FOR_TYPE[wrong], 'type', `a ${wrong} where ${[...f.types].join('|')} is required`);
    }
    if (f.const) {
      const other = differentSameType(f.const.value);
      if (other !== undefined) set(other, 'const', `changed from the constant ${JSON.stringify(f.const.value)}`);
    }
    if (f.enum) {
      const other = outsideEnum(f.enum, value);
      if (other !== undefined) set(other, 'enum', 'a value outside the enum');
    }
    if (typeof value === 'number') this.planNumber(value, f, set);
    else if (typeof value === 'string') this.planString(value, f, set);
    else if (Array.isArray(value)) this.planArray(value, f, at, out, set);
    else if (isPlainObject(value)) this.planObject(value, f, at, out);
  }

  private planNumber(value: number, f: Flat, set: (v: unknown, k: string, m: string) => void): void {
    if (f.minimum !== undefined) set(f.minimum - 1, 'minimum', `below the minimum ${f.minimum}`);
    if (f.maximum !== undefined) set(f.maximum + 1, 'maximum', `above the maximum ${f.maximum}`);
    if (f.exclusiveMinimum !== undefined) set(f.exclusiveMinimum, 'exclusiveMinimum', `equal to the exclusive minimum ${f.exclusiveMinimum}`);
    if (f.exclusiveMaximum !== undefined) set(f.exclusiveMaximum, 'exclusiveMaximum', `equal to the exclusive maximum ${f.exclusiveMaximum}`);
    if (f.types?.has('integer') && !f.types.has('number')) set(value + 0.5, 'type', 'not an integer');
    if (f.multipleOf) set(value + f.multipleOf / 2, 'multipleOf', `not a multiple of ${f.multipleOf}`);
    for (const fmt of f.formats) for (const bad of brokenFormatValues(fmt)) if (typeof bad === 'number') set(bad, 'format', `outside the ${fmt} range`);
  }

  private planString(value: string, f: Flat, set: (v: unknown, k: string, m: string) => void): void {
    const chars = [...value];
    if (f.minLength !== undefined && f.minLength > 0) set(chars.slice(0, f.minLength - 1).join(''), 'minLength', `shorter than minLength ${f.minLength}`);
    if (f.maxLength !== undefined && Number.isFinite(f.maxLength)) {
      set((value || 'x').repeat(Math.ceil((f.maxLength + 1) / Math.max(1, chars.length))).padEnd(f.maxLength + 1, 'x'), 'maxLength', `longer than maxLength ${f.maxLength}`);
    }
    for (const p of f.patterns) {
      const re = new RegExp(p, 'u');
      const bad = ['', ' ', '!!', '\u0000', `${value}\u0000 `].find((s) => !re.test(s));
      if (bad !== undefined) set(bad, 'pattern', `does not match the pattern ${p}`);
    }
    for (const fmt of f.formats) for (const bad of brokenFormatValues(fmt)) if (typeof bad === 'string') set(bad, 'format', `not a valid ${fmt}`);
  }

  private planArray(value: unknown[], f: Flat, at: (string | number)[], out: Candidate[], set: (v: unknown, k: string, m: string) => void): void {
    if (f.minItems !== undefined && f.minItems > 0) set(value.slice(0, f.minItems - 1), 'minItems', `fewer items than minItems ${f.minItems}`);
    if (f.maxItems !== undefined && Number.isFinite(f.maxItems) && !f.uniqueItems) {
      const filler = value.length > 0 ? value[0] : this.exampleFor(f.items);
      if (filler !== undefined) set([...value, ...Array(f.maxItems + 1 - value.length).fill(filler)], 'maxItems', `more items than maxItems ${f.maxItems}`);
    }
    if (f.uniqueItems && value.length > 0 && value.length < (f.maxItems ?? Infinity)) set([...value, value[0]], 'uniqueItems', 'a duplicated item');
    // Recurse into a few items: enough to reach every item schema without planning thousands.
    value.slice(0, 3).forEach((item, i) => {
      const schemas = f.prefixItems[i] ?? (f.items.length ? f.items : undefined);
      if (schemas) this.plan(item, normalize(this.doc, schemas), [...at, i], out);
    });
  }

  private planObject(value: Record<string, unknown>, f: Flat, at: (string | number)[], out: Candidate[]): void {
    const path = pointer(at);
    for (const key of f.required) {
      if (key in value) out.push({ at: [...at, key], op: { kind: 'delete' }, label: { path, keyword: 'required', mutation: `required property "${key}" removed` } });
    }
    if (f.openRules.some((r) => r.schema === false)) {
      const extra = ['mcpspec_unexpected', 'unexpectedField'].find((k) => propertySchemas(f, k) === false && !(k in value));
      if (extra) out.push({ at: [...at, extra], op: { kind: 'set', value: true }, label: { path, keyword: 'additionalProperties', mutation: `unexpected property "${extra}" added` } });
    }
    for (const [key, v] of Object.entries(value)) {
      const schemas = propertySchemas(f, key);
      if (schemas === false || schemas.length === 0) continue;
      this.plan(v, normalize(this.doc, schemas), [...at, key], out);
    }
  }

  /** A valid example of a normalised schema, generated once with a fixed seed. */
  private example(norm: Norm): unknown {
    if (!this.examples.has(norm)) {
      let ex: unknown;
      try {
        [ex] = fc.sample(this.valid.arbitrary(norm.sources, 1), { numRuns: 1, seed: 7 });
      } catch {
        ex = undefined;
      }
      this.examples.set(norm, ex);
    }
    return this.examples.get(norm);
  }

  private exampleFor(schemas: SchemaNode[]): unknown {
    return this.example(normalize(this.doc, schemas.length ? schemas : [true]));
  }
}

/** ajv must fail the value, report the label, and report nothing off the label's branch. */
export function confirms(check: ValidateFunction, value: unknown, label: ViolationLabel): boolean {
  if (check(value)) return false;
  const errors = check.errors ?? [];
  return errors.some((e) => matchesLabel(e, label)) && errors.every((e) => onLine(e.instancePath, label.path));
}

export function matchesLabel(e: ErrorObject, label: ViolationLabel): boolean {
  return e.instancePath === label.path && (e.keyword === label.keyword || (label.keyword === 'false schema' && e.keyword === 'false schema'));
}

function onLine(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

export function pointer(at: (string | number)[]): string {
  return at.map((s) => `/${escapePointer(String(s))}`).join('');
}

function apply(root: unknown, at: (string | number)[], op: Op): unknown {
  if (at.length === 0) return op.kind === 'set' ? op.value : undefined;
  const [head, ...rest] = at;
  if (Array.isArray(root)) {
    const copy = [...root];
    if (rest.length === 0 && op.kind === 'delete') copy.splice(head as number, 1);
    else copy[head as number] = apply(copy[head as number], rest, op);
    return copy;
  }
  const copy = { ...(root as Record<string, unknown>) };
  if (rest.length === 0 && op.kind === 'delete') delete copy[head as string];
  else copy[head as string] = apply(copy[head as string], rest, op);
  return copy;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function differentSameType(v: unknown): unknown {
  if (typeof v === 'string') return v === '' ? 'x' : `${v}-mcpspec`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (v === null) return 'null';
  return undefined;
}

function outsideEnum(values: unknown[], current: unknown): unknown {
  const seen = new Set(values.map((x) => JSON.stringify(x)));
  const tries: unknown[] = typeof current === 'number' ? [Math.max(...values.filter((x): x is number => typeof x === 'number')) + 1, -99999] : ['mcpspec-not-in-enum', 'other'];
  return tries.find((t) => !seen.has(JSON.stringify(t)));
}

/** The JSON types some branch of the union (or the flat schema) accepts; undefined = every type. */
export function acceptedTypes(n: Norm): Set<JsonType> | undefined {
  if (n.kind === 'flat') {
    if (n.never) return new Set();
    if (n.const) return new Set([jsonTypeOf(n.const.value)]);
    if (n.enum) return new Set(n.enum.map(jsonTypeOf));
    if (!n.types) return undefined;
    const t = new Set(n.types);
    if (t.has('integer') && !t.has('number')) t.add('number'); // 2.5 is not accepted, but 7 is: keep 'number' out of "wrong" picks
    return t;
  }
  const out = new Set<JsonType>();
  for (const b of n.branches) {
    const t = acceptedTypes(b);
    if (!t) return undefined;
    for (const x of t) out.add(x);
  }
  return out;
}

export function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** Whether any JSON value fails the schema (if not, no near-valid value exists). */
function canBreak(n: Norm): boolean {
  const t = acceptedTypes(n);
  if (t) return true;
  if (n.kind === 'union') return n.branches.every(canBreak);
  return n.never || !!n.const || !!n.enum || !!n.types || n.required.size > 0 || n.openRules.length > 0 || n.minimum !== undefined ||
    n.maximum !== undefined || n.minLength !== undefined || n.maxLength !== undefined || n.patterns.length > 0 || n.formats.length > 0 ||
    n.minItems !== undefined || n.maxItems !== undefined || n.properties.size > 0 || n.items.length > 0 || n.nots.length > 0 || n.unsupported.length > 0;
}
