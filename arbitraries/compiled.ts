// Compiled generators: a tree of plain functions over a seeded random stream, built from the same
// normalised schema (normalize.ts) and the same reading of it (valid.ts helpers) as the fast-check
// arbitraries. They produce valid and near-valid values many times faster than the arbitraries, for
// bulk generation, fuzzing and benchmarks; they do not shrink (use the arbitraries in properties
// that need shrinking).
//
// Near-valid values are built, not filtered: a break site (a member, an item, the value itself) and
// a kind (wrong type, constant changed, bound crossed, required member removed, ...) are chosen
// from the compiled tree, and everything else is generated valid. Whether a break is seen by ajv
// exactly as labelled is decided when the tree is compiled:
// - a break that replaces the value at its place by a fixed value (null, a string, a number past a
//   bound, a broken format) is judged once against the schema at that place;
// - a structural break (member removed, unexpected member, items) or a break deeper down is allowed
//   under an `anyOf`/`oneOf` only where the other branches provably reject the value and report
//   nothing off the broken path: other JSON types (any break), or a discriminating constant the break
//   leaves alone (breaks at the union's own place only);
// - anything else (unions whose branches overlap, `not`, keywords the generators do not model) is
//   confirmed with ajv for that place, value by value, and only where a fixed-seed trial at compile
//   time showed such breaks can be confirmed at all.

import type { ValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { NUMERIC_FORMATS } from '../protocol/formats.js';
import { escapePointer, schemaFromObject, type SchemaDocument, type SchemaNode } from '../protocol/schema-registry.js';
import { conjunctKey, isEmptySchema, isNotAnything, normalize, propertySchemas, type Flat, type JsonType, type Norm, type Union } from './normalize.js';
import { acceptedTypes, confirms, jsonTypeOf, NotMutableError, SAMPLE_FOR_TYPE, WRONG_TYPE_ORDER, type NearValid } from './near-valid.js';
import { drawFrom, Rng, type Draw } from './rng.js';
import { brokenFormatValues, drawWords, formatDraw, hintedDraw } from './string-formats.js';
import { candidateTypes, formatRange, integerRange, isPlainString, satisfiable, terminates, UnsatisfiableSchemaError, type GenOptions } from './valid.js';

/** A break inside a value: the broken value and where (relative JSON pointer) and how it breaks. */
interface Break {
  value: unknown;
  path: string;
  keyword: string;
  mutation: string;
}

/** Which breaks a place allows: deeper ones too, and which members must stay (discriminators). */
interface Mode {
  deep: boolean;
  exclude: ReadonlySet<string> | undefined;
}
const ALL: Mode = { deep: true, exclude: undefined };

const RETRIES = 100;
const WORDS = ['alpha', 'beta', 'value', 'test', 'mcp', 'ok', '42', 'x'];
const EXTRA_NAMES = ['x-extra', 'vendorData', 'note', 'com.example/tag'];
const UNEXPECTED_NAMES = ['mcpspec_unexpected', 'unexpectedField'];

// ------------------------------------------------------------------------------------------------
// Public surface

/** Valid and near-valid values of one schema node, drawn from a seeded stream. */
export class CompiledSchema {
  private near: boolean | undefined;
  private check: ValidateFunction | undefined;

  constructor(
    private readonly root: Position,
    private readonly doc: SchemaDocument,
    private readonly nodes: SchemaNode[],
  ) {}

  /** A valid value. */
  valid(r: Rng): unknown {
    return this.root.gen(r);
  }

  /** A value that breaks one constraint, labelled with the JSON pointer and keyword ajv reports. */
  nearValid(r: Rng): NearValid {
    if (!this.canBreak) throw new NotMutableError('no constraint of the schema can be broken: it accepts every JSON value, or every break is absorbed');
    for (let i = 0; i < 64; i++) {
      const b = this.root.brk(r);
      if (b) return { value: b.value, label: { path: b.path, keyword: b.keyword, mutation: b.mutation } };
    }
    throw new NotMutableError('no break of 64 attempts could be built');
  }

  /** Whether near-valid values exist (compiles the break sites on first use). */
  get canBreak(): boolean {
    return (this.near ??= this.root.weight() > 0);
  }

  /** `count` valid values from `seed`. */
  sample(count: number, seed = 0): unknown[] {
    const r = new Rng(seed);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) out.push(this.root.gen(r));
    return out;
  }

  /** `count` near-valid values from `seed`. */
  sampleNearValid(count: number, seed = 0): NearValid[] {
    const r = new Rng(seed);
    const out: NearValid[] = [];
    for (let i = 0; i < count; i++) out.push(this.nearValid(r));
    return out;
  }

  /** ajv's verdict for this node. */
  validate(value: unknown): boolean {
    return (this.check ??= this.doc.validatorForNodes(this.nodes))(value) as boolean;
  }

  /** A fast-check arbitrary of valid values drawn from this generator: replayable by seed, no shrinking. */
  validArbitrary(): fc.Arbitrary<unknown> {
    return fc.noShrink(fc.integer({ min: 0, max: 0x7fffffff })).map((seed: number) => this.valid(new Rng(seed)));
  }

  /** A fast-check arbitrary of near-valid values drawn from this generator (no shrinking). */
  nearValidArbitrary(): fc.Arbitrary<NearValid> {
    if (!this.canBreak) throw new NotMutableError('no constraint of the schema can be broken');
    return fc.noShrink(fc.integer({ min: 0, max: 0x7fffffff })).map((seed: number) => this.nearValid(new Rng(seed)));
  }
}

const compilers = new WeakMap<SchemaDocument, Map<string, Compiler>>();

function compilerFor(doc: SchemaDocument, options: GenOptions): Compiler {
  let perDoc = compilers.get(doc);
  if (!perDoc) compilers.set(doc, (perDoc = new Map()));
  const key = JSON.stringify(options);
  let c = perDoc.get(key);
  if (!c) perDoc.set(key, (c = new Compiler(doc, options)));
  return c;
}

/** The compiled generator of the conjunction of `nodes` of `doc`. */
export function compileNodes(doc: SchemaDocument, nodes: SchemaNode[], options: GenOptions = {}): CompiledSchema {
  const c = compilerFor(doc, options);
  return new CompiledSchema(c.position(nodes, c.maxDepth), doc, nodes);
}

/** The compiled generator of a definition (`CallToolRequest`, `#/$defs/JSONRPCMessage`) of a loaded document. */
export function compileDefinition(doc: SchemaDocument, ref: string, options: GenOptions = {}): CompiledSchema {
  return compileNodes(doc, [doc.definition(ref)], options);
}

/** The compiled generator of any JSON Schema object, such as a tool's `inputSchema`. */
export function compileSchema(schema: Record<string, unknown>, options: GenOptions = {}): CompiledSchema {
  const doc = schemaFromObject(schema);
  return compileNodes(doc, [doc.root], options);
}

// ------------------------------------------------------------------------------------------------
// The compiler

class Compiler {
  readonly maxDepth: number;
  private readonly positions = new Map<string, Position>();
  private readonly shapes = new Map<Norm, Map<number, Shape>>();

  constructor(
    readonly doc: SchemaDocument,
    readonly options: GenOptions,
  ) {
    this.maxDepth = options.maxDepth ?? 4;
  }

  /** The place where a value must satisfy the conjunction of `nodes`, with `depth` levels of optional content left. */
  position(nodes: SchemaNode[], depth: number): Position {
    const key = `${conjunctKey(nodes)}@${depth}`;
    let p = this.positions.get(key);
    if (!p) {
      p = new Position(this, nodes, depth);
      this.positions.set(key, p);
      try {
        p.init();
      } catch (e) {
        this.positions.delete(key);
        throw e;
      }
    }
    return p;
  }

  shape(norm: Norm, depth: number): Shape {
    let perNorm = this.shapes.get(norm);
    if (!perNorm) this.shapes.set(norm, (perNorm = new Map()));
    let s = perNorm.get(depth);
    if (!s) {
      s = norm.kind === 'union' ? new UnionShape(this, norm, depth) : new FlatShape(this, norm, depth);
      perNorm.set(depth, s);
      try {
        s.init();
      } catch (e) {
        perNorm.delete(depth);
        throw e;
      }
    }
    return s;
  }
}

interface Shape {
  init(): void;
  gen(r: Rng): unknown;
  /** The plain function behind gen(), once built. */
  drawFunction(): Draw | undefined;
}

interface Leaf {
  shape: FlatShape;
  mode: Mode;
  /** Breaks here must be confirmed with ajv (overlapping union branches, `not`, unmodelled keywords). */
  unknown: boolean;
  weight: number;
}

interface Scalar {
  make: () => unknown;
  keyword: string;
  mutation: string;
}

/** A place in a value: the schema conjunction that governs it, and its generators. */
class Position {
  readonly norm: Norm;
  private shape!: Shape;
  private scalarList: Scalar[] | undefined;
  private leafList: Leaf[] | undefined;
  private total: number | undefined;
  private computing = false;
  private local: ValidateFunction | undefined;

  constructor(
    private readonly c: Compiler,
    readonly nodes: SchemaNode[],
    readonly depth: number,
  ) {
    this.norm = normalize(c.doc, nodes);
  }

  init(): void {
    this.shape = this.c.shape(this.norm, this.depth);
  }

  /** A valid value here. Replaced by the shape's own draw once that is built (one call less per level). */
  gen: Draw = (r) => {
    const draw = this.shape.drawFunction();
    if (draw) this.gen = draw;
    return this.shape.gen(r);
  };

  /** ajv for this place alone: for breaks that must be confirmed, and for doubtful fixed replacements. */
  private check(): ValidateFunction {
    return (this.local ??= this.c.doc.validatorForNodes(this.nodes));
  }

  /** How many break sites lie at or under this place (0: none). */
  weight(): number {
    if (this.total !== undefined) return this.total;
    if (this.computing) return 0; // a reference cycle without descent: counted once
    this.computing = true;
    try {
      let w = this.scalars().length;
      for (const leaf of this.leaves()) w += leaf.weight;
      this.total = w;
      return w;
    } finally {
      this.computing = false;
    }
  }

  /** A value for this place with one break at or under it, or undefined when none could be built. */
  brk(r: Rng): Break | undefined {
    const w = this.weight();
    if (w === 0) return undefined;
    let x = r.int(w);
    const scalars = this.scalars();
    if (x < scalars.length) return scalarBreak(scalars[x]);
    x -= scalars.length;
    for (const leaf of this.leaves()) {
      if (x < leaf.weight) return this.leafBreak(r, leaf);
      x -= leaf.weight;
    }
    return undefined;
  }

  private leafBreak(r: Rng, leaf: Leaf): Break | undefined {
    if (!leaf.unknown) return leaf.shape.innerBreak(r, leaf.mode);
    for (let i = 0; i < 3; i++) {
      const b = leaf.shape.innerBreak(r, leaf.mode);
      if (b && confirms(this.check(), b.value, b)) return b;
    }
    const scalars = this.scalars();
    return scalars.length ? scalarBreak(scalars[r.int(scalars.length)]) : undefined;
  }

  /** Fixed replacements of the whole value here that the schema at this place rejects as labelled. */
  private scalars(): Scalar[] {
    if (this.scalarList) return this.scalarList;
    const candidates: Scalar[] = [];
    const seen = new Set<string>();
    const add = (value: unknown, keyword: string, mutation: string): void => {
      const key = `${keyword}:${JSON.stringify(value)}`;
      if (seen.has(key) || value === undefined) return;
      seen.add(key);
      const json = JSON.stringify(value);
      const make = value !== null && typeof value === 'object' ? () => JSON.parse(json) as unknown : () => value;
      candidates.push({ make, keyword, mutation });
    };
    const norm = this.norm;
    if (norm.kind === 'union') {
      const accepted = acceptedTypes(norm);
      if (accepted) {
        if (!accepted.has('null')) add(null, norm.mode, 'replaced by null, which matches no branch');
        const wrong = WRONG_TYPE_ORDER.find((t) => !accepted.has(t));
        if (wrong) add(SAMPLE_FOR_TYPE[wrong], norm.mode, `replaced by a ${wrong}, which matches no branch`);
      }
    }
    for (const f of flatLeaves(norm)) planScalars(f, norm.kind === 'flat', add);
    const kept: Scalar[] = [];
    for (const s of candidates) {
      const value = s.make();
      const verdict = judge(this.c.doc, norm, value);
      if (verdict === 'reject' || (verdict === 'maybe' && confirms(this.check(), value, { path: '', keyword: s.keyword, mutation: s.mutation }))) kept.push(s);
    }
    this.scalarList = kept;
    return kept;
  }

  /** The flat alternatives a value here is generated from, each with the breaks it allows. */
  private leaves(): Leaf[] {
    if (this.leafList) return this.leafList;
    const out: Leaf[] = [];
    const walk = (shape: Shape, siblings: Norm[]): void => {
      if (shape instanceof UnionShape) {
        for (const i of shape.allowed) {
          const others = shape.norm.branches.filter((_, j) => j !== i);
          walk(shape.branchShape(i), [...siblings, ...others]);
        }
        return;
      }
      const flat = shape as FlatShape;
      const f = flat.f;
      const opaque = f.nots.length > 0 || f.unsupported.length > 0;
      let unknown = opaque;
      let deep = true;
      const exclude = new Set<string>();
      if (!unknown) {
        for (const s of siblings) {
          const rel = relation(this.c.doc, f, s, exclude);
          if (rel === 'unknown') unknown = true;
          else if (rel === 'disc') deep = false;
        }
      }
      // An unknown leaf gets a mode of its own: its break sites are filtered by calibrate().
      const mode: Mode = unknown ? { deep: true, exclude: undefined } : deep ? ALL : { deep: false, exclude };
      out.push({ shape: flat, mode, unknown, weight: 0 });
    };
    walk(this.shape, []);
    this.leafList = out;
    for (const leaf of out) {
      leaf.weight = leaf.shape.innerWeight(leaf.mode);
      if (leaf.unknown && leaf.weight > 0) {
        // Keep only the break sites whose breaks ajv confirms in a fixed-seed trial (most of the
        // time); the rest are absorbed by an overlapping branch or off the labelled path.
        // Each such break costs an ajv run (or more): they get a quarter of their sites' weight.
        const calibrated = leaf.shape.calibrate(leaf.mode, (b) => confirms(this.check(), b.value, b));
        leaf.weight = Math.ceil(calibrated / 4);
      }
    }
    return out;
  }
}

function scalarBreak(s: Scalar): Break {
  return { value: s.make(), path: '', keyword: s.keyword, mutation: s.mutation };
}

// ------------------------------------------------------------------------------------------------
// Shapes: generators of one normalised schema at one depth

class UnionShape implements Shape {
  allowed: number[] = [];
  private branches: Shape[] = [];
  /** For a oneOf whose branches may overlap: the other branches' validators, per allowed branch. */
  private others: (ValidateFunction[] | undefined)[] = [];

  constructor(
    private readonly c: Compiler,
    readonly norm: Union,
    private readonly depth: number,
  ) {}

  init(): void {
    const u = this.norm;
    let indices = u.branches.map((_, i) => i).filter((i) => satisfiable(u.branches[i]));
    if (this.depth <= 0) {
      const shallow = indices.filter((i) => terminates(this.c.doc, u.branches[i], new Set()));
      if (shallow.length > 0) indices = shallow;
    }
    if (indices.length === 0) throw new UnsatisfiableSchemaError('no branch of the union can be satisfied');
    this.allowed = indices;
    this.branches = indices.map((i) => this.c.shape(u.branches[i], this.depth));
    this.others = indices.map((i) => {
      if (u.mode === 'anyOf') return undefined;
      const exclusive = u.branches.every((b, j) => j === i || excludes(this.c.doc, u.branches[i], b));
      return exclusive ? undefined : u.rawBranches.filter((_, j) => j !== i).map((b) => this.c.doc.validatorForNodes([b]));
    });
  }

  drawFunction(): Draw | undefined {
    if (this.branches.length === 0) return undefined;
    if (this.branches.length === 1 && !this.others[0]) return this.branches[0].drawFunction();
    return (r) => this.gen(r);
  }

  branchShape(i: number): Shape {
    return this.branches[this.allowed.indexOf(i)];
  }

  gen(r: Rng): unknown {
    const k = this.branches.length === 1 ? 0 : r.int(this.branches.length);
    const others = this.others[k];
    if (!others) return this.branches[k].gen(r);
    for (let t = 0; t < RETRIES; t++) {
      const v = this.branches[k].gen(r);
      if (others.every((check) => !check(v))) return v;
    }
    throw new UnsatisfiableSchemaError(`no value of oneOf branch ${this.allowed[k]} in ${RETRIES} tries matched that branch alone`);
  }
}

interface Member {
  key: string;
  /** `/key`, escaped. */
  step: string;
  required: boolean;
  pos: Position;
  gen: Draw;
}

interface Extra {
  key: Draw<string>;
  value: (key: string) => unknown;
}

type Choice =
  | { kind: 'required'; key: string; weight: number }
  | { kind: 'unexpected'; key: string; weight: number; notSchema: boolean }
  | { kind: 'member'; member: Member; weight: number }
  | { kind: 'minItems' | 'maxItems' | 'uniqueItems' | 'item'; weight: number }
  | { kind: 'prefix'; index: number; weight: number };

class FlatShape implements Shape {
  private draw!: Draw;
  private members: Member[] = [];
  private extras: Extra[] = [];
  private hasObject = false;
  private hasArray = false;
  // arrays
  private minItems = 0;
  private maxItems = 0;
  private prefix: Position[] = [];
  private item: Position | undefined;
  private closedTuple = false;
  private choiceCache = new Map<Mode, { choices: Choice[]; total: number }>();

  constructor(
    private readonly c: Compiler,
    readonly f: Flat,
    private readonly depth: number,
  ) {}

  init(): void {
    const f = this.f;
    if (f.never) throw new UnsatisfiableSchemaError('schema admits no value');
    let draw: Draw;
    if (f.const) {
      const value = f.const.value;
      if (value !== null && typeof value === 'object') {
        const json = JSON.stringify(value);
        draw = () => JSON.parse(json) as unknown;
      } else draw = () => value;
    } else if (f.enum) {
      if (f.enum.length === 0) throw new UnsatisfiableSchemaError('empty enum');
      const values = f.enum;
      draw = values.length === 1 ? () => values[0] : (r) => values[r.int(values.length)];
    } else {
      const types = candidateTypes(f);
      if (types.length === 0) throw new UnsatisfiableSchemaError('no JSON type satisfies the schema');
      const draws = types.map((t) => this.ofType(t));
      draw = draws.length === 1 ? draws[0] : (r) => draws[r.int(draws.length)](r);
    }
    const filtered = f.nots.length > 0 || f.unsupported.length > 0 || (f.patterns.length > 0 && f.formats.length > 0) || !trivialPropertyNames(f);
    if (filtered) {
      // Keywords the generators do not model: keep only what ajv accepts for this node.
      const check = this.c.doc.validatorForNodes(f.sources);
      const inner = draw;
      draw = (r) => {
        for (let t = 0; t < RETRIES; t++) {
          const v = inner(r);
          if (check(v)) return v;
        }
        throw new UnsatisfiableSchemaError(`no value of ${RETRIES} tries satisfied the schema's unmodelled keywords`);
      };
    }
    this.draw = draw;
  }

  gen(r: Rng): unknown {
    return this.draw(r);
  }

  drawFunction(): Draw | undefined {
    return this.draw;
  }

  private ofType(t: JsonType): Draw {
    const f = this.f;
    switch (t) {
      case 'null':
        return () => null;
      case 'boolean':
        return (r) => r.int(2) === 1;
      case 'integer':
        return integerDraw(f);
      case 'number':
        return numberDraw(f);
      case 'string':
        return stringDraw(f);
      case 'array':
        this.hasArray = true;
        return this.arrayDraw();
      case 'object':
        this.hasObject = true;
        return this.objectDraw();
    }
  }

  // ---- objects

  private objectDraw(): Draw {
    const f = this.f;
    const depth = this.depth;
    for (const key of new Set([...f.properties.keys(), ...f.required])) {
      const schemas = propertySchemas(f, key);
      if (schemas === false) {
        if (f.required.has(key)) throw new UnsatisfiableSchemaError(`required property "${key}" is forbidden`);
        continue;
      }
      const required = f.required.has(key);
      if (!required && depth <= 0) continue;
      const norm = normalize(this.c.doc, schemas);
      if (!required && !satisfiable(norm)) continue;
      const pos = this.c.position(schemas, depth - 1);
      const hint = norm.kind === 'flat' && isPlainString(norm) ? hintedDraw(key, this.c.options.specVersion) : undefined;
      const member: Member = { key, step: `/${escapePointer(key)}`, required, pos, gen: hint ?? ((r) => pos.gen(r)) };
      if (!hint) {
        // Once the member's position has its draw, call it directly (one call less per member).
        member.gen = (r) => {
          const v = pos.gen(r);
          member.gen = pos.gen;
          return v;
        };
      }
      this.members.push(member);
    }
    if (depth > 0) this.extras = this.extraProperties(depth - 1);
    const members = this.members;
    const extras = this.extras;
    return (r) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < members.length; i++) {
        const m = members[i];
        if (m.required || (r.u32() & 1) === 1) o[m.key] = m.gen(r);
      }
      if (extras.length > 0 && r.int(6) === 0) addExtra(o, extras[r.int(extras.length)], r, f);
      return o;
    };
  }

  private extraProperties(depth: number): Extra[] {
    const f = this.f;
    const out: Extra[] = [];
    for (const pp of f.patternProperties) {
      const keyDraw = drawFrom(fc.stringMatching(pp.re));
      out.push({
        key: (r) => {
          for (let t = 0; t < RETRIES; t++) {
            const k = keyDraw(r);
            if (k.length > 0 && k.length < 40 && !f.properties.has(k)) return k;
          }
          return '';
        },
        value: (k) => {
          const schemas = propertySchemas(f, k);
          return schemas === false ? undefined : this.c.position(schemas, depth);
        },
        // (pattern keys vary: their positions are looked up per key, cached by the compiler)
      });
    }
    if (!f.openRules.some((rule) => rule.schema === false)) {
      const names = EXTRA_NAMES.filter((k) => propertySchemas(f, k) !== false && !f.properties.has(k) && !f.required.has(k));
      if (names.length > 0) {
        const positions = new Map(names.map((k) => [k, this.c.position(propertySchemas(f, k) as SchemaNode[], Math.min(depth, 1))]));
        out.push({ key: (r) => names[r.int(names.length)], value: (k) => positions.get(k) });
      }
    }
    // `value` returns the Position; addExtra draws from it.
    return out;
  }

  // ---- arrays

  private arrayDraw(): Draw {
    const f = this.f;
    const depth = this.depth;
    const min = f.minItems ?? 0;
    const max = Math.min(f.maxItems ?? Infinity, depth <= 0 ? min : min + 3);
    if (max < min) throw new UnsatisfiableSchemaError('maxItems < minItems');
    this.minItems = min;
    this.maxItems = max;
    if (max === 0) return () => [];
    this.prefix = f.prefixItems.map((s) => this.c.position(s, depth - 1));
    this.closedTuple = f.items.some(isNotAnything);
    if (this.closedTuple) {
      if (min > this.prefix.length) throw new UnsatisfiableSchemaError('minItems exceeds a closed tuple');
      this.maxItems = this.prefix.length;
      this.minItems = this.prefix.length;
      const prefix = this.prefix;
      return (r) => prefix.map((p) => p.gen(r));
    }
    this.item = this.c.position(f.items.length ? f.items : [true], depth - 1);
    return (r) => this.arrayOf(r, min + r.int(max - min + 1));
  }

  private arrayOf(r: Rng, length: number): unknown[] {
    const out: unknown[] = [];
    const unique = this.f.uniqueItems;
    const seen = unique ? new Set<string>() : undefined;
    for (let i = 0; i < length; i++) {
      const p = i < this.prefix.length ? this.prefix[i] : this.item!;
      let v = p.gen(r);
      if (seen) {
        let t = 0;
        while (seen.has(JSON.stringify(v))) {
          if (++t > RETRIES) throw new UnsatisfiableSchemaError('could not draw distinct items for uniqueItems');
          v = p.gen(r);
        }
        seen.add(JSON.stringify(v));
      }
      out.push(v);
    }
    return out;
  }

  // ---- breaks

  /** How many structural and deeper break sites this shape offers under `mode`. */
  innerWeight(mode: Mode): number {
    return this.choices(mode).total;
  }

  private choices(mode: Mode): { choices: Choice[]; total: number } {
    let hit = this.choiceCache.get(mode);
    if (hit) return hit;
    const f = this.f;
    const choices: Choice[] = [];
    if (this.hasObject) {
      for (const m of this.members) {
        if (m.required && !mode.exclude?.has(m.key)) choices.push({ kind: 'required', key: m.key, weight: 1 });
      }
      if (f.openRules.some((rule) => rule.schema === false)) {
        const key = UNEXPECTED_NAMES.find((k) => propertySchemas(f, k) === false && !f.properties.has(k) && !f.required.has(k));
        // ajv reports `additionalProperties: false` on the object, `additionalProperties: { not: {} }` as `not` on the member.
        const byFalse = f.openRules.some((rule) => rule.raw === false);
        if (key) choices.push({ kind: 'unexpected', key, weight: 1, notSchema: !byFalse });
      }
      if (mode.deep) {
        for (const m of this.members) {
          const w = m.pos.weight();
          if (w > 0) choices.push({ kind: 'member', member: m, weight: w });
        }
      }
    }
    if (this.hasArray && !this.closedTuple) {
      const min = this.minItems;
      const max = this.maxItems;
      const declaredMax = f.maxItems;
      if (min > 0) choices.push({ kind: 'minItems', weight: 1 });
      if (declaredMax !== undefined && declaredMax <= 64 && declaredMax >= min && (this.item || this.prefix.length > declaredMax)) choices.push({ kind: 'maxItems', weight: 1 });
      if (f.uniqueItems && max >= 1 && (declaredMax === undefined || Math.max(1, min) + 1 <= declaredMax)) choices.push({ kind: 'uniqueItems', weight: 1 });
      if (mode.deep && max >= 1) {
        this.prefix.forEach((p, index) => {
          const w = index < max ? p.weight() : 0;
          if (w > 0) choices.push({ kind: 'prefix', index, weight: w });
        });
        const w = max > this.prefix.length ? this.item!.weight() : 0;
        if (w > 0) choices.push({ kind: 'item', weight: w });
      }
    } else if (this.hasArray && this.closedTuple && mode.deep) {
      this.prefix.forEach((p, index) => {
        const w = p.weight();
        if (w > 0) choices.push({ kind: 'prefix', index, weight: w });
      });
    }
    let total = 0;
    for (const ch of choices) total += ch.weight;
    hit = { choices, total };
    this.choiceCache.set(mode, hit);
    return hit;
  }

  /**
   * Keep, for `mode`, the break sites whose breaks `accept` takes at least half the time in a
   * fixed-seed trial; returns the remaining weight.
   */
  calibrate(mode: Mode, accept: (b: Break) => boolean): number {
    const { choices } = this.choices(mode);
    const r = new Rng(0x5eed);
    const kept = choices.filter((ch) => {
      let ok = 0;
      for (let i = 0; i < 8; i++) {
        const b = this.build(r, ch);
        if (b && accept(b)) ok++;
      }
      return ok >= 4;
    });
    let total = 0;
    for (const ch of kept) total += ch.weight;
    this.choiceCache.set(mode, { choices: kept, total });
    return total;
  }

  /** A value of this shape with one structural or deeper break, chosen by weight. */
  innerBreak(r: Rng, mode: Mode): Break | undefined {
    const { choices, total } = this.choices(mode);
    if (total === 0) return undefined;
    let x = r.int(total);
    let choice = choices[0];
    for (const ch of choices) {
      if (x < ch.weight) {
        choice = ch;
        break;
      }
      x -= ch.weight;
    }
    return this.build(r, choice);
  }

  private build(r: Rng, choice: Choice): Break | undefined {
    switch (choice.kind) {
      case 'required':
      case 'unexpected':
      case 'member':
        return this.objectBreak(r, choice);
      default:
        return this.arrayBreak(r, choice);
    }
  }

  private objectBreak(r: Rng, choice: Extract<Choice, { kind: 'required' | 'unexpected' | 'member' }>): Break | undefined {
    const o: Record<string, unknown> = {};
    let brk: Break | undefined;
    for (const m of this.members) {
      if (choice.kind === 'required' && choice.key === m.key) continue;
      if (choice.kind === 'member' && choice.member === m) {
        const b = m.pos.brk(r);
        if (!b) return undefined;
        o[m.key] = b.value;
        brk = { value: o, path: m.step + b.path, keyword: b.keyword, mutation: b.mutation };
        continue;
      }
      if (m.required || r.int(2) === 1) o[m.key] = m.gen(r);
    }
    if (this.extras.length > 0 && r.int(6) === 0) addExtra(o, this.extras[r.int(this.extras.length)], r, this.f);
    if (choice.kind === 'required') return { value: o, path: '', keyword: 'required', mutation: `required property "${choice.key}" removed` };
    if (choice.kind === 'unexpected') {
      o[choice.key] = true;
      const mutation = `unexpected property "${choice.key}" added`;
      return choice.notSchema
        ? { value: o, path: `/${escapePointer(choice.key)}`, keyword: 'not', mutation }
        : { value: o, path: '', keyword: 'additionalProperties', mutation };
    }
    return brk;
  }

  private arrayBreak(r: Rng, choice: Choice): Break | undefined {
    const min = this.minItems;
    const max = this.maxItems;
    const f = this.f;
    switch (choice.kind) {
      case 'minItems':
        return { value: this.arrayOf(r, min - 1), path: '', keyword: 'minItems', mutation: `fewer items than minItems ${min}` };
      case 'maxItems': {
        const n = f.maxItems! + 1;
        const items: unknown[] = [];
        for (let i = 0; i < n; i++) items.push((i < this.prefix.length ? this.prefix[i] : this.item!).gen(r));
        return { value: items, path: '', keyword: 'maxItems', mutation: `more items than maxItems ${f.maxItems}` };
      }
      case 'uniqueItems': {
        const hi = Math.min(max, f.maxItems !== undefined ? f.maxItems - 1 : max);
        const lo = Math.max(1, min);
        const items = this.arrayOf(r, lo + r.int(Math.max(0, hi - lo) + 1));
        items.push(JSON.parse(JSON.stringify(items[0])) as unknown);
        return { value: items, path: '', keyword: 'uniqueItems', mutation: 'a duplicated item' };
      }
      case 'prefix':
      case 'item': {
        const lo = choice.kind === 'prefix' ? Math.max(min, choice.index + 1) : Math.max(min, this.prefix.length + 1, 1);
        const n = this.closedTuple ? this.prefix.length : lo + r.int(Math.max(0, max - lo) + 1);
        const at = choice.kind === 'prefix' ? choice.index : this.prefix.length + r.int(n - this.prefix.length);
        const p = choice.kind === 'prefix' ? this.prefix[choice.index] : this.item!;
        const b = p.brk(r);
        if (!b) return undefined;
        const items: unknown[] = [];
        const seen = f.uniqueItems ? new Set<string>() : undefined;
        for (let i = 0; i < n; i++) {
          if (i === at) {
            items.push(b.value);
            continue;
          }
          const q = i < this.prefix.length ? this.prefix[i] : this.item!;
          let v = q.gen(r);
          if (seen) {
            let t = 0;
            while (seen.has(JSON.stringify(v)) && ++t < RETRIES) v = q.gen(r);
            seen.add(JSON.stringify(v));
          }
          items.push(v);
        }
        return { value: items, path: `/${at}${b.path}`, keyword: b.keyword, mutation: b.mutation };
      }
      default:
        return undefined;
    }
  }
}

function addExtra(o: Record<string, unknown>, extra: Extra, r: Rng, f: Flat): void {
  const k = extra.key(r);
  if (k === '' || k in o || f.required.has(k)) return;
  const pos = extra.value(k) as Position | undefined;
  if (pos) o[k] = pos.gen(r);
}

function trivialPropertyNames(f: Flat): boolean {
  return f.propertyNames.every((n) => {
    if (isEmptySchema(n)) return true;
    if (typeof n !== 'object') return false;
    return Object.keys(n).every((k) => k === 'type' || isEmptySchema({ [k]: n[k] })) && (n.type === undefined || n.type === 'string');
  });
}

// ------------------------------------------------------------------------------------------------
// Scalars, strings

function integerDraw(f: Flat): Draw<number> {
  const { lo, hi } = integerRange(f);
  if (f.multipleOf) {
    const m = f.multipleOf;
    const kLo = Math.ceil(lo / m);
    const kHi = Math.floor(hi / m);
    if (kHi < kLo) throw new UnsatisfiableSchemaError('no multiple of multipleOf in range');
    const top = Math.min(kHi, kLo + 1_000_000);
    return (r) => {
      for (let t = 0; t < RETRIES; t++) {
        const v = r.range(kLo, top) * m;
        if (Number.isInteger(v)) return v;
      }
      throw new UnsatisfiableSchemaError('no integer multiple of multipleOf found');
    };
  }
  if (hi < lo) throw new UnsatisfiableSchemaError('integer bounds are empty');
  const a = Math.max(lo, Number.MIN_SAFE_INTEGER);
  const b = Math.min(hi, Number.MAX_SAFE_INTEGER);
  // Mostly uniform; one in eight at an edge (the bounds, 0, 1, -1) where the range holds it.
  const edges = [a, b, 0, 1, -1].filter((x) => x >= a && x <= b);
  return (r) => (r.int(8) === 0 ? edges[r.int(edges.length)] : r.range(a, b));
}

function numberDraw(f: Flat): Draw<number> {
  const intFormat = f.formats.some((x) => formatRange(x));
  if (intFormat || f.multipleOf) return integerDraw(f);
  const fmt = f.formats.map(formatDraw).find(Boolean) as Draw<number> | undefined;
  const hasBounds = [f.minimum, f.maximum, f.exclusiveMinimum, f.exclusiveMaximum].some((x) => x !== undefined);
  if (fmt && !hasBounds) return fmt;
  const min = f.exclusiveMinimum ?? f.minimum ?? -1_000_000;
  const max = f.exclusiveMaximum ?? f.maximum ?? Math.max(1_000_000, min + 1);
  const minEx = f.exclusiveMinimum !== undefined;
  const maxEx = f.exclusiveMaximum !== undefined;
  let ints: Draw<number> | undefined;
  try {
    ints = integerDraw(f);
  } catch (e) {
    if (!(e instanceof UnsatisfiableSchemaError)) throw e; // no integer in range: doubles only
  }
  const dbl: Draw<number> = (r) => {
    for (let t = 0; t < RETRIES; t++) {
      const v = min + r.float() * (max - min);
      if ((minEx ? v > min : v >= min) && (maxEx ? v < max : v <= max) && !Object.is(v, -0)) return v;
    }
    throw new UnsatisfiableSchemaError('number bounds admit no value');
  };
  if (!ints) return dbl;
  const i = ints;
  return (r) => {
    if (r.int(2) === 0) return dbl(r);
    const v = i(r);
    return Object.is(v, -0) ? 0 : v;
  };
}

/**
 * Printable ASCII strings are windows of one fixed pseudo-random pool (8 KiB, drawn once from a fixed
 * seed): one draw per string instead of one per character. Short windows: up to 64 characters come
 * from the pool, longer strings (rare: only where minLength asks) are built character by character.
 */
const POOL_SIZE = 8192;
const POOL = (() => {
  const r = new Rng(0x9e3779b9);
  let s = '';
  for (let i = 0; i < POOL_SIZE; i++) s += String.fromCharCode(32 + r.int(95));
  return s;
})();

function randomString(r: Rng, min: number, max: number): string {
  const n = min + r.int(max - min + 1);
  if (n <= 64) {
    const at = r.int(POOL_SIZE - n);
    return POOL.slice(at, at + n);
  }
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(32 + r.int(95));
  return s;
}

function stringDraw(f: Flat): Draw<string> {
  const min = f.minLength ?? 0;
  const max = f.maxLength ?? Infinity;
  const bounded = min > 0 || Number.isFinite(max);
  const fits = (s: string): boolean => {
    if (!bounded) return true;
    const n = codePoints(s);
    return n >= min && n <= max;
  };
  const withRetry = (inner: Draw<string>, what: string): Draw<string> =>
    bounded
      ? (r) => {
          for (let t = 0; t < RETRIES; t++) {
            const s = inner(r);
            if (fits(s)) return s;
          }
          throw new UnsatisfiableSchemaError(`no ${what} of ${RETRIES} tries fits minLength/maxLength`);
        }
      : inner;
  if (f.patterns.length > 0) {
    const first = drawFrom(fc.stringMatching(new RegExp(f.patterns[0], 'u')));
    const rest = f.patterns.slice(1).map((p) => new RegExp(p, 'u'));
    const inner: Draw<string> = rest.length
      ? (r) => {
          for (let t = 0; t < RETRIES; t++) {
            const s = first(r);
            if (rest.every((re) => re.test(s))) return s;
          }
          throw new UnsatisfiableSchemaError(`no string of ${RETRIES} tries matched every pattern`);
        }
      : first;
    return withRetry(inner, 'string matching the pattern');
  }
  const fmt = f.formats.map(formatDraw).find(Boolean) as Draw<string> | undefined;
  if (fmt) return withRetry(fmt, `${f.formats[0]} string`);
  const hi = Number.isFinite(max) ? max : Math.max(min, 24);
  if (!bounded) return (r) => (r.int(5) < 3 ? drawWords(r, 1, 4, WORDS) : randomString(r, min, hi));
  const shortHi = Math.min(hi, min + 20);
  return (r) => {
    if (r.int(2) === 0) {
      const s = r.int(5) < 3 ? drawWords(r, 1, 4, WORDS) : randomString(r, min, hi);
      if (fits(s)) return s;
    }
    return randomString(r, min, shortHi);
  };
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

// ------------------------------------------------------------------------------------------------
// Planning fixed replacements and judging them without ajv

/** Every flat alternative of a normalised schema (all branches of its unions). */
function flatLeaves(n: Norm): Flat[] {
  if (n.kind === 'flat') return [n];
  return n.branches.flatMap(flatLeaves);
}

function planScalars(f: Flat, typeBreaks: boolean, add: (v: unknown, keyword: string, mutation: string) => void): void {
  if (f.never) return;
  if (typeBreaks && f.types) {
    if (!f.types.has('null')) add(null, 'type', 'null where the schema does not allow null');
    const wrong = WRONG_TYPE_ORDER.find((t) => !f.types!.has(t) && !(t === 'integer' && f.types!.has('number')) && t !== 'null');
    if (wrong) add(SAMPLE_FOR_TYPE[wrong], 'type', `a ${wrong} where ${[...f.types].join('|')} is required`);
  }
  if (f.const) {
    const v = f.const.value;
    const other = typeof v === 'string' ? (v === '' ? 'x' : `${v}-mcpspec`) : typeof v === 'number' ? v + 1 : typeof v === 'boolean' ? !v : v === null ? 'null' : undefined;
    if (other !== undefined) add(other, 'const', `changed from the constant ${JSON.stringify(v)}`);
  }
  if (f.enum && f.enum.length > 0) {
    const seen = new Set(f.enum.map((x) => JSON.stringify(x)));
    const nums = f.enum.filter((x): x is number => typeof x === 'number');
    const tries: unknown[] = nums.length ? [Math.max(...nums) + 1, -99999] : ['mcpspec-not-in-enum', 'other'];
    const other = tries.find((t) => !seen.has(JSON.stringify(t)));
    if (other !== undefined) add(other, 'enum', 'a value outside the enum');
  }
  if (f.const || f.enum) return;
  const types = candidateTypes(f);
  const numeric = types.includes('number') || types.includes('integer');
  if (numeric) {
    if (f.minimum !== undefined) add(f.minimum - 1, 'minimum', `below the minimum ${f.minimum}`);
    if (f.maximum !== undefined) add(f.maximum + 1, 'maximum', `above the maximum ${f.maximum}`);
    if (f.exclusiveMinimum !== undefined) add(f.exclusiveMinimum, 'exclusiveMinimum', `equal to the exclusive minimum ${f.exclusiveMinimum}`);
    if (f.exclusiveMaximum !== undefined) add(f.exclusiveMaximum, 'exclusiveMaximum', `equal to the exclusive maximum ${f.exclusiveMaximum}`);
    let inRange: number | undefined;
    try {
      const { lo, hi } = integerRange(f);
      if (lo <= hi) inRange = Math.max(lo, Math.min(hi, 0));
      if (inRange !== undefined && inRange + 1 > hi) inRange = undefined;
    } catch {
      inRange = undefined;
    }
    if (f.types?.has('integer') && !f.types.has('number') && inRange !== undefined) add(inRange + 0.5, 'type', 'not an integer');
    if (f.multipleOf && inRange !== undefined) add(Math.ceil(inRange / f.multipleOf) * f.multipleOf + f.multipleOf / 2, 'multipleOf', `not a multiple of ${f.multipleOf}`);
    for (const fmt of f.formats) for (const bad of brokenFormatValues(fmt)) if (typeof bad === 'number') add(bad, 'format', `outside the ${fmt} range`);
  }
  if (types.includes('string')) {
    if (f.minLength !== undefined && f.minLength > 0) add('x'.repeat(f.minLength - 1), 'minLength', `shorter than minLength ${f.minLength}`);
    if (f.maxLength !== undefined && f.maxLength < 100_000) add('x'.repeat(f.maxLength + 1), 'maxLength', `longer than maxLength ${f.maxLength}`);
    for (const p of f.patterns) {
      const re = new RegExp(p, 'u');
      const bad = ['', ' ', '!!', '\u0000', '\u0000 x'].find((s) => !re.test(s));
      if (bad !== undefined) add(bad, 'pattern', `does not match the pattern ${p}`);
    }
    for (const fmt of f.formats) for (const bad of brokenFormatValues(fmt)) if (typeof bad === 'string') add(bad, 'format', `not a valid ${fmt}`);
  }
}

type Verdict = 'accept' | 'reject' | 'maybe';

/** Whether a normalised schema accepts a scalar (or an empty object/array), where that can be told without ajv. */
function judge(doc: SchemaDocument, n: Norm, v: unknown): Verdict {
  if (n.kind === 'union') {
    const verdicts = n.branches.map((b) => judge(doc, b, v));
    const accepts = verdicts.filter((x) => x === 'accept').length;
    const rejects = verdicts.filter((x) => x === 'reject').length;
    if (rejects === verdicts.length) return 'reject';
    if (n.mode === 'anyOf') return accepts > 0 ? 'accept' : 'maybe';
    // Two matching branches also fail a oneOf, but ajv then reports only `oneOf`: let ajv judge.
    return accepts === 1 && rejects === verdicts.length - 1 ? 'accept' : 'maybe';
  }
  const f = n;
  if (f.never) return 'reject';
  let maybe = false;
  const t = jsonTypeOf(v);
  if (f.types && !(f.types.has(t) || (t === 'integer' && f.types.has('number')))) return 'reject';
  if (f.const && JSON.stringify(f.const.value) !== JSON.stringify(v)) return 'reject';
  if (f.enum && !f.enum.some((x) => JSON.stringify(x) === JSON.stringify(v))) return 'reject';
  if (typeof v === 'number') {
    if (f.minimum !== undefined && v < f.minimum) return 'reject';
    if (f.maximum !== undefined && v > f.maximum) return 'reject';
    if (f.exclusiveMinimum !== undefined && v <= f.exclusiveMinimum) return 'reject';
    if (f.exclusiveMaximum !== undefined && v >= f.exclusiveMaximum) return 'reject';
    if (f.multipleOf !== undefined && v % f.multipleOf !== 0) return 'reject';
  }
  if (typeof v === 'string') {
    const len = codePoints(v);
    if (f.minLength !== undefined && len < f.minLength) return 'reject';
    if (f.maxLength !== undefined && len > f.maxLength) return 'reject';
    for (const p of f.patterns) if (!new RegExp(p, 'u').test(v)) return 'reject';
  }
  for (const fmt of f.formats) {
    const ok = formatAccepts(fmt, v);
    if (ok === false) return 'reject';
    if (ok === undefined) maybe = true;
  }
  if (Array.isArray(v)) {
    if (f.minItems !== undefined && v.length < f.minItems) return 'reject';
    if (v.length > 0) maybe = true;
  } else if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    for (const k of f.required) if (!keys.includes(k)) return 'reject';
    if (keys.length > 0) maybe = true;
  }
  for (const sub of f.nots) {
    const inner = judge(doc, normalize(doc, [sub]), v);
    if (inner === 'accept') return 'reject';
    if (inner === 'maybe') maybe = true;
  }
  if (f.unsupported.length > 0) maybe = true;
  return maybe ? 'maybe' : 'accept';
}

type FormatCheck = RegExp | ((x: never) => boolean) | { type?: string; validate: RegExp | ((x: never) => boolean); async?: boolean };

/** ajv's verdict for a format (as registered by schema-registry: ajv-formats' full set plus mcpspec's), if known. */
function formatAccepts(format: string, v: unknown): boolean | undefined {
  if (format === 'const') return true;
  const def = (NUMERIC_FORMATS as Record<string, FormatCheck>)[format] ?? (fullFormats as unknown as Record<string, FormatCheck | undefined>)[format];
  if (def === undefined) return undefined;
  let type = 'string';
  let check: RegExp | ((x: never) => boolean);
  if (def instanceof RegExp || typeof def === 'function') check = def;
  else {
    if (def.async) return undefined;
    type = def.type ?? 'string';
    check = def.validate;
  }
  if (typeof v !== type) return true; // a format applies to its own type only
  return check instanceof RegExp ? check.test(v as string) : (check as (x: unknown) => boolean)(v);
}

// ------------------------------------------------------------------------------------------------
// How union branches relate

function typesOverlap(a: Set<JsonType> | undefined, b: Set<JsonType> | undefined): boolean {
  if (!a || !b) return true;
  const widen = (s: Set<JsonType>): Set<JsonType> => {
    const w = new Set(s);
    if (w.has('integer')) w.add('number');
    if (w.has('number')) w.add('integer');
    return w;
  };
  const wa = widen(a);
  for (const x of widen(b)) if (wa.has(x)) return true;
  return false;
}

function constValues(n: Norm): string[] | undefined {
  if (n.kind === 'flat') {
    if (n.const) return [JSON.stringify(n.const.value)];
    if (n.enum) return n.enum.map((x) => JSON.stringify(x));
    return undefined;
  }
  const out: string[] = [];
  for (const b of n.branches) {
    const v = constValues(b);
    if (!v) return undefined;
    out.push(...v);
  }
  return out;
}

/**
 * How `sibling` rejects every value of `leaf`: by JSON type ('type': it reports only at the value's
 * own place), by a required member of `leaf` whose constants it does not allow ('disc': the member,
 * recorded in `keys`, must stay), or not provably ('unknown').
 */
function relation(doc: SchemaDocument, leaf: Flat, sibling: Norm, keys: Set<string>): 'type' | 'disc' | 'unknown' {
  if (!typesOverlap(acceptedTypes(leaf), acceptedTypes(sibling))) return 'type';
  if (sibling.kind === 'union') {
    let result: 'type' | 'disc' = 'type';
    for (const b of sibling.branches) {
      const rel = relation(doc, leaf, b, keys);
      if (rel === 'unknown') return 'unknown';
      if (rel === 'disc') result = 'disc';
    }
    return result;
  }
  if (sibling.never) return 'type';
  for (const key of leaf.required) {
    const own = propertySchemas(leaf, key);
    if (own === false) continue;
    const mine = constValues(normalize(doc, own));
    if (!mine) continue;
    const theirs = propertySchemas(sibling, key);
    if (theirs === false) {
      keys.add(key);
      return 'disc';
    }
    if (theirs.length === 0) continue;
    const other = constValues(normalize(doc, theirs));
    if (other && !mine.some((m) => other.includes(m))) {
      keys.add(key);
      return 'disc';
    }
  }
  return 'unknown';
}

/** Whether every value of `a` is rejected by `b` (for oneOf: no filter needed). */
function excludes(doc: SchemaDocument, a: Norm, b: Norm): boolean {
  return flatLeaves(a).every((leaf) => leaf.never || relation(doc, leaf, b, new Set()) !== 'unknown');
}
