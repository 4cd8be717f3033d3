import fc from 'fast-check';
import type { SchemaDocument, SchemaNode } from '../protocol/schema-registry.js';
import { conjunctKey, isNotAnything, JSON_TYPES, normalize, propertySchemas, type Flat, type JsonType, type Norm } from './normalize.js';
import { formatArbitrary, formatType, hintedString } from './string-formats.js';

export interface GenOptions {
  /** How many levels of nested objects/arrays may hold optional content (recursion bound). */
  maxDepth?: number;
  /** The MCP version the values speak, for realistic `protocolVersion` strings. */
  specVersion?: string;
}

export class UnsatisfiableSchemaError extends Error {
  override name = 'UnsatisfiableSchemaError';
}

/**
 * Builds fast-check arbitraries of values that satisfy a schema node. One builder per document and
 * option set; arbitraries are cached per (schema conjunction, remaining depth) so recursive
 * definitions such as JSONValue are built once per level.
 */
export class ValidBuilder {
  private readonly cache = new Map<string, fc.Arbitrary<unknown>>();
  private readonly building = new Set<string>();
  private readonly maxDepth: number;

  constructor(
    readonly doc: SchemaDocument,
    readonly options: GenOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? 4;
  }

  /** Values valid for the conjunction of `nodes`. */
  arbitrary(nodes: SchemaNode[], depth = this.maxDepth): fc.Arbitrary<unknown> {
    const key = `${conjunctKey(nodes)}@${depth}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (this.building.has(key)) {
      // A reference cycle that does not descend into a property or item: resolve lazily.
      return fc.constant(null).chain(() => this.cache.get(key)!);
    }
    this.building.add(key);
    try {
      const arb = this.fromNorm(normalize(this.doc, nodes), depth);
      this.cache.set(key, arb);
      return arb;
    } finally {
      this.building.delete(key);
    }
  }

  private fromNorm(norm: Norm, depth: number): fc.Arbitrary<unknown> {
    if (norm.kind === 'union') return this.fromUnion(norm, depth);
    return this.fromFlat(norm, depth);
  }

  private fromUnion(u: Extract<Norm, { kind: 'union' }>, depth: number): fc.Arbitrary<unknown> {
    let indices = u.branches.map((_, i) => i).filter((i) => satisfiable(u.branches[i]));
    if (depth <= 0) {
      // Out of depth budget: prefer branches that end without further nesting.
      const shallow = indices.filter((i) => terminates(this.doc, u.branches[i], new Set()));
      if (shallow.length > 0) indices = shallow;
    }
    if (indices.length === 0) throw new UnsatisfiableSchemaError('no branch of the union can be satisfied');
    const arbs = indices.map((i) => {
      const arb = this.arbitrary([...u.sources, u.rawBranches[i]], depth);
      if (u.mode === 'anyOf') return arb;
      // oneOf: the value must match no other branch.
      const others = u.rawBranches.filter((_, j) => j !== i).map((b) => this.doc.validatorForNodes([b]));
      return arb.filter((v) => others.every((check) => !check(v)));
    });
    return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
  }

  private fromFlat(f: Flat, depth: number): fc.Arbitrary<unknown> {
    if (f.never) throw new UnsatisfiableSchemaError('schema admits no value');
    let arb: fc.Arbitrary<unknown>;
    if (f.const) arb = fc.constant(f.const.value);
    else if (f.enum) {
      if (f.enum.length === 0) throw new UnsatisfiableSchemaError('empty enum');
      arb = fc.constantFrom(...f.enum);
    } else {
      const types = candidateTypes(f);
      if (types.length === 0) throw new UnsatisfiableSchemaError('no JSON type satisfies the schema');
      const arbs = types.map((t) => this.ofType(f, t, depth));
      arb = arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
    }
    if (f.nots.length > 0) {
      const nots = f.nots.map((n) => this.doc.validatorForNodes([n]));
      arb = arb.filter((v) => nots.every((check) => !check(v)));
    }
    if (f.unsupported.length > 0 || (f.patterns.length > 0 && f.formats.length > 0) || f.propertyNames.length > 0) {
      // Keywords the generators do not model (if/then/else, dependentRequired, ...): keep only the
      // values ajv accepts for this node.
      const check = this.doc.validatorForNodes(f.sources);
      arb = arb.filter((v) => check(v) as boolean);
    }
    return arb;
  }

  private ofType(f: Flat, t: JsonType, depth: number): fc.Arbitrary<unknown> {
    switch (t) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerArb(f);
      case 'number':
        return numberArb(f);
      case 'string':
        return stringArb(f, undefined, this.options.specVersion);
      case 'array':
        return this.arrayArb(f, depth);
      case 'object':
        return this.objectArb(f, depth);
    }
  }

  /** A string property gets a realistic generator by its name where the schema leaves it open. */
  propertyArbitrary(schemas: SchemaNode[], name: string, depth: number): fc.Arbitrary<unknown> {
    const norm = normalize(this.doc, schemas);
    if (norm.kind === 'flat' && isPlainString(norm)) {
      const hinted = hintedString(name, this.options.specVersion);
      if (hinted) return hinted;
    }
    return this.arbitrary(schemas, depth);
  }

  private objectArb(f: Flat, depth: number): fc.Arbitrary<unknown> {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const key of new Set([...f.properties.keys(), ...f.required])) {
      const schemas = propertySchemas(f, key);
      if (schemas === false) {
        if (f.required.has(key)) throw new UnsatisfiableSchemaError(`required property "${key}" is forbidden`);
        continue;
      }
      const isRequired = f.required.has(key);
      if (!isRequired && depth <= 0) continue; // out of budget: only what must be there
      const norm = normalize(this.doc, schemas);
      if (!isRequired && !satisfiable(norm)) continue;
      model[key] = this.propertyArbitrary(schemas, key, depth - 1);
      if (isRequired) required.push(key);
    }
    let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
    const extra = depth > 0 ? this.extraProperty(f, depth - 1) : undefined;
    if (extra) {
      // Mostly no extra key, as in real traffic; sometimes one, to exercise open schemas.
      const maybeExtra = fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: extra });
      arb = fc.tuple(arb, maybeExtra).map(([o, e]) => (e && !(e[0] in o) ? { ...o, [e[0]]: e[1] } : o));
    }
    return arb;
  }

  /** One extra key/value allowed by additionalProperties or patternProperties, if any is. */
  private extraProperty(f: Flat, depth: number): fc.Arbitrary<[string, unknown]> | undefined {
    const options: fc.Arbitrary<[string, unknown]>[] = [];
    for (const pp of f.patternProperties) {
      const keyArb = fc.stringMatching(pp.re).filter((k) => k.length > 0 && k.length < 40 && !f.properties.has(k));
      options.push(
        keyArb.chain((k) => {
          const schemas = propertySchemas(f, k);
          return schemas === false ? fc.constant(['', undefined] as [string, unknown]) : this.arbitrary(schemas, depth).map((v) => [k, v] as [string, unknown]);
        }),
      );
    }
    const names = propertyNameArb(f);
    if (names) {
      const probe = 'x-extra';
      const schemas = propertySchemas(f, probe);
      if (schemas !== false) {
        const valueArb = this.arbitrary(schemas, Math.min(depth, 1));
        options.push(fc.tuple(names.filter((k) => propertySchemas(f, k) !== false && !f.properties.has(k)), valueArb));
      }
    }
    if (options.length === 0) return undefined;
    return (options.length === 1 ? options[0] : fc.oneof(...options)).filter(([k]) => k !== '');
  }

  private arrayArb(f: Flat, depth: number): fc.Arbitrary<unknown> {
    const min = f.minItems ?? 0;
    const max = Math.min(f.maxItems ?? Infinity, depth <= 0 ? min : min + 3);
    if (max < min) throw new UnsatisfiableSchemaError('maxItems < minItems');
    if (max === 0) return fc.constant([]);
    const prefix = f.prefixItems.map((s) => this.arbitrary(s, depth - 1));
    // `items: false` after prefixItems closes the tuple.
    const closed = f.items.some(isNotAnything);
    if (closed) {
      if (min > prefix.length) throw new UnsatisfiableSchemaError('minItems exceeds a closed tuple');
      return prefix.length === 0 ? fc.constant([]) : fc.tuple(...prefix);
    }
    const itemArb = this.arbitrary(f.items.length ? f.items : [true], depth - 1);
    if (prefix.length === 0) {
      return f.uniqueItems
        ? fc.uniqueArray(itemArb, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
        : fc.array(itemArb, { minLength: min, maxLength: max });
    }
    const restMin = Math.max(0, min - prefix.length);
    const restMax = Math.max(restMin, max - prefix.length);
    let arb: fc.Arbitrary<unknown[]> = fc
      .tuple(fc.tuple(...prefix), fc.array(itemArb, { minLength: restMin, maxLength: restMax }))
      .map(([p, r]) => [...p, ...r]);
    if (f.uniqueItems) arb = arb.filter((a) => new Set(a.map((v) => JSON.stringify(v))).size === a.length);
    return arb;
  }
}

export function candidateTypes(f: Flat): JsonType[] {
  if (f.types) {
    const t = [...f.types];
    // "number" includes integers, but one generator per JSON type keeps the mix realistic.
    return t.includes('number') ? t.filter((x) => x !== 'integer') : t;
  }
  // No `type`: infer from the keywords present, as a human reading the schema would.
  if (f.properties.size || f.required.size || f.openRules.length || f.patternProperties.length) return ['object'];
  if (f.items.length || f.prefixItems.length || f.minItems !== undefined || f.maxItems !== undefined) return ['array'];
  if (f.minLength !== undefined || f.maxLength !== undefined || f.patterns.length) return ['string'];
  if (f.minimum !== undefined || f.maximum !== undefined || f.multipleOf !== undefined) return ['number'];
  const fmt = f.formats.map(formatType).find(Boolean);
  if (fmt) return [fmt];
  return JSON_TYPES.filter((t) => t !== 'integer');
}

export function isPlainString(f: Flat): boolean {
  return (
    !!f.types && f.types.size === 1 && f.types.has('string') && !f.const && !f.enum && f.minLength === undefined &&
    f.maxLength === undefined && f.patterns.length === 0 && f.formats.length === 0 && f.nots.length === 0 && f.unsupported.length === 0
  );
}

/** A shallow judgement used to drop branches that can never hold a value. */
export function satisfiable(n: Norm): boolean {
  if (n.kind === 'union') return n.branches.some(satisfiable);
  if (n.never) return false;
  if (n.enum && n.enum.length === 0) return false;
  return true;
}

/** Whether a value for `n` can be built without descending into nested content (for depth 0). */
export function terminates(doc: SchemaDocument, n: Norm, visiting: Set<Norm>): boolean {
  if (visiting.has(n)) return false;
  visiting.add(n);
  try {
    if (n.kind === 'union') return n.branches.some((b) => terminates(doc, b, visiting));
    if (n.never) return false;
    if (n.const || n.enum) return true;
    const types = candidateTypes(n);
    if (types.some((t) => t !== 'object' && t !== 'array')) return true;
    if (types.includes('array') && (n.minItems ?? 0) === 0 && n.prefixItems.length === 0) return true;
    if (types.includes('object')) {
      return [...n.required].every((k) => {
        const s = propertySchemas(n, k);
        return s !== false && terminates(doc, normalize(doc, s), visiting);
      });
    }
    return false;
  } finally {
    visiting.delete(n);
  }
}

/** The integer range a flat schema allows, with realistic magnitudes where it leaves a side open. */
export function integerRange(f: Flat): { lo: number; hi: number } {
  let min = Math.max(f.minimum ?? -Infinity, f.exclusiveMinimum !== undefined ? Math.floor(f.exclusiveMinimum) + 1 : -Infinity);
  let max = Math.min(f.maximum ?? Infinity, f.exclusiveMaximum !== undefined ? Math.ceil(f.exclusiveMaximum) - 1 : Infinity);
  for (const fmt of f.formats) {
    const a = formatRange(fmt);
    if (a) {
      min = Math.max(min, a[0]);
      max = Math.min(max, a[1]);
    }
  }
  min = Math.ceil(min);
  max = Math.floor(max);
  // Realistic magnitudes unless the bounds say otherwise.
  const lo = Number.isFinite(min) ? min : Math.min(-1000, Number.isFinite(max) ? max - 1000 : -1000);
  const hi = Number.isFinite(max) ? max : Math.max(1_000_000, lo + 1000);
  return { lo, hi };
}

function integerArb(f: Flat): fc.Arbitrary<number> {
  const { lo, hi } = integerRange(f);
  if (f.multipleOf) {
    const m = f.multipleOf;
    const kLo = Math.ceil(lo / m);
    const kHi = Math.floor(hi / m);
    if (kHi < kLo) throw new UnsatisfiableSchemaError('no multiple of multipleOf in range');
    return fc.integer({ min: kLo, max: Math.min(kHi, kLo + 1_000_000) }).map((k) => k * m).filter(Number.isInteger);
  }
  if (hi < lo) throw new UnsatisfiableSchemaError('integer bounds are empty');
  return fc.integer({ min: Math.max(lo, Number.MIN_SAFE_INTEGER), max: Math.min(hi, Number.MAX_SAFE_INTEGER) });
}

export function formatRange(fmt: string): [number, number] | undefined {
  if (fmt === 'int32') return [-(2 ** 31), 2 ** 31 - 1];
  if (fmt === 'uint32') return [0, 2 ** 32 - 1];
  if (fmt === 'uint64') return [0, Number.MAX_SAFE_INTEGER];
  if (fmt === 'int64') return [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return undefined;
}

function numberArb(f: Flat): fc.Arbitrary<number> {
  const intFormat = f.formats.some((x) => formatRange(x));
  if (intFormat || f.multipleOf) return integerArb(f);
  const fmtArb = f.formats.map(formatArbitrary).find(Boolean) as fc.Arbitrary<number> | undefined;
  const hasBounds = [f.minimum, f.maximum, f.exclusiveMinimum, f.exclusiveMaximum].some((x) => x !== undefined);
  if (fmtArb && !hasBounds) return fmtArb;
  const min = f.exclusiveMinimum ?? f.minimum ?? -1_000_000;
  const max = f.exclusiveMaximum ?? f.maximum ?? Math.max(1_000_000, min + 1);
  const dbl = fc.double({
    min, max, noNaN: true, noDefaultInfinity: true,
    minExcluded: f.exclusiveMinimum !== undefined, maxExcluded: f.exclusiveMaximum !== undefined,
  });
  const ints: fc.Arbitrary<number>[] = [];
  try {
    ints.push(integerArb(f));
  } catch (e) {
    if (!(e instanceof UnsatisfiableSchemaError)) throw e; // no integer in range: doubles only
  }
  return fc.oneof(...ints, dbl).filter((n) => !Object.is(n, -0)) as fc.Arbitrary<number>;
}

function stringArb(f: Flat, name: string | undefined, specVersion: string | undefined): fc.Arbitrary<string> {
  const min = f.minLength ?? 0;
  const max = f.maxLength ?? Infinity;
  const fitsLength = (s: string): boolean => {
    const n = [...s].length;
    return n >= min && n <= max;
  };
  const fmt = f.formats.map(formatArbitrary).find(Boolean) as fc.Arbitrary<string> | undefined;
  let arb: fc.Arbitrary<string>;
  if (f.patterns.length > 0) {
    arb = fc.stringMatching(new RegExp(f.patterns[0], 'u'));
    const rest = f.patterns.slice(1).map((p) => new RegExp(p, 'u'));
    if (rest.length) arb = arb.filter((s) => rest.every((re) => re.test(s)));
  } else if (fmt) {
    arb = fmt;
  } else {
    const hinted = name ? hintedString(name, specVersion) : undefined;
    if (hinted) arb = hinted;
    else {
      const words = fc.array(fc.constantFrom('alpha', 'beta', 'value', 'test', 'mcp', 'ok', '42', 'x'), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
      const hi = Number.isFinite(max) ? max : Math.max(min, 24);
      arb = fc.oneof(
        { arbitrary: words, weight: 3 },
        { arbitrary: fc.string({ minLength: min, maxLength: hi }), weight: 2 },
      );
      if (min > 0 || Number.isFinite(max)) {
        arb = fc.oneof(arb.filter(fitsLength), fc.string({ minLength: min, maxLength: Math.min(hi, min + 20) }));
      }
      return arb;
    }
  }
  return min > 0 || Number.isFinite(max) ? arb.filter(fitsLength) : arb;
}

function propertyNameArb(f: Flat): fc.Arbitrary<string> | undefined {
  // Extra keys only where every closing rule leaves room for an unknown key.
  if (f.openRules.some((r) => r.schema === false)) return undefined;
  return fc.constantFrom('x-extra', 'vendorData', 'note', 'com.example/tag');
}
