import type { SchemaDocument, SchemaNode } from '../protocol/schema-registry.js';

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';
export const JSON_TYPES: JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** An object schema that closes its property set; keys it does not know must satisfy `schema`. */
export interface OpenRule {
  known: Set<string>;
  patterns: RegExp[];
  schema: SchemaNode; // `false` = closed
  /** The keyword's own value: `false`, or a schema such as `{ "not": {} }` (ajv then reports `not` at the member). */
  raw?: unknown;
}

/**
 * A schema with `$ref` followed and `allOf` merged into one set of constraints: what the generators
 * read. `sources` are the original nodes whose conjunction it is (for ajv sub-validators).
 */
export interface Flat {
  kind: 'flat';
  sources: SchemaNode[];
  never: boolean;
  types?: Set<JsonType>;
  const?: { value: unknown };
  enum?: unknown[];
  properties: Map<string, SchemaNode[]>;
  required: Set<string>;
  openRules: OpenRule[];
  patternProperties: { re: RegExp; source: string; schemas: SchemaNode[] }[];
  propertyNames: SchemaNode[];
  items: SchemaNode[];
  prefixItems: SchemaNode[][];
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  patterns: string[];
  formats: string[];
  nots: SchemaNode[];
  /** Constraining keywords the generators do not model; values are then checked with ajv. */
  unsupported: string[];
}

/** `anyOf`/`oneOf`, with the other constraints of the node distributed into every branch. */
export interface Union {
  kind: 'union';
  mode: 'anyOf' | 'oneOf';
  branches: Norm[];
  /** The raw branch nodes, for checking a value against one branch alone. */
  rawBranches: SchemaNode[];
  sources: SchemaNode[];
}

export type Norm = Flat | Union;

/** Keywords that carry no constraint on values. */
const ANNOTATIONS = new Set([
  '$schema', '$id', '$comment', '$anchor', '$defs', 'definitions', 'title', 'description', 'default', 'examples',
  'deprecated', 'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding', 'contentSchema', 'nullable',
  '$vocabulary', '$dynamicAnchor', 'x-mcp-header', 'discriminator',
]);
const HANDLED = new Set([
  'type', 'const', 'enum', 'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames',
  'items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format', 'not', 'allOf', 'anyOf', 'oneOf', '$ref',
]);

const ids = new WeakMap<object, number>();
let nextId = 1;
/** A stable identity for a schema node, used in cache keys. */
export function nodeId(n: SchemaNode): string {
  if (typeof n === 'boolean') return n ? 'T' : 'F';
  let id = ids.get(n);
  if (id === undefined) {
    id = nextId++;
    ids.set(n, id);
  }
  return String(id);
}

export function conjunctKey(nodes: SchemaNode[]): string {
  return nodes.map(nodeId).join(',');
}

const normCache = new WeakMap<SchemaDocument, Map<string, Norm>>();

/** Normalise the conjunction of `nodes` (all from `doc`). Cached per document. */
export function normalize(doc: SchemaDocument, nodes: SchemaNode[]): Norm {
  let cache = normCache.get(doc);
  if (!cache) normCache.set(doc, (cache = new Map()));
  const key = conjunctKey(nodes);
  let norm = cache.get(key);
  if (!norm) {
    norm = build(doc, nodes);
    cache.set(key, norm);
  }
  return norm;
}

interface Group {
  mode: 'anyOf' | 'oneOf';
  branches: SchemaNode[];
}

function build(doc: SchemaDocument, nodes: SchemaNode[]): Norm {
  const atoms: Record<string, unknown>[] = [];
  const groups: Group[] = [];
  let never = false;
  const seen = new Set<object>();
  const expand = (n: SchemaNode): void => {
    if (n === true) return;
    if (n === false) {
      never = true;
      return;
    }
    if (seen.has(n)) return;
    seen.add(n);
    if (typeof n.$ref === 'string') expand(doc.resolveRef(n.$ref));
    if (Array.isArray(n.allOf)) for (const c of n.allOf) expand(c as SchemaNode);
    if (Array.isArray(n.anyOf)) groups.push({ mode: 'anyOf', branches: n.anyOf as SchemaNode[] });
    if (Array.isArray(n.oneOf)) groups.push({ mode: 'oneOf', branches: n.oneOf as SchemaNode[] });
    atoms.push(n);
  };
  for (const n of nodes) expand(n);
  // A group one of whose branches is already among the conjuncts was chosen by an earlier
  // distribution step; it is satisfied by that branch.
  const open = groups.filter((g) => !g.branches.some((b) => b === true || (typeof b === 'object' && seen.has(b))));

  if (open.length > 0 && !never) {
    // Distribute: allOf[rest, anyOf[B1..Bn]] == anyOf[allOf[rest, B1], ...]; likewise for oneOf
    // because, given rest holds, exactly one Bi holds iff exactly one (rest && Bi) holds.
    const [first] = open;
    return {
      kind: 'union',
      mode: first.mode,
      rawBranches: first.branches,
      branches: first.branches.map((b) => normalize(doc, [...nodes, b])),
      sources: nodes,
    };
  }
  return merge(atoms, nodes, never);
}

function merge(atoms: Record<string, unknown>[], sources: SchemaNode[], never: boolean): Flat {
  const f: Flat = {
    kind: 'flat', sources, never, properties: new Map(), required: new Set(), openRules: [], patternProperties: [],
    propertyNames: [], items: [], prefixItems: [], uniqueItems: false, patterns: [], formats: [], nots: [], unsupported: [],
  };
  for (const a of atoms) {
    for (const [k, v] of Object.entries(a)) {
      if (ANNOTATIONS.has(k)) continue;
      if (!HANDLED.has(k)) {
        if (!f.unsupported.includes(k)) f.unsupported.push(k);
        continue;
      }
      switch (k) {
        case 'type': {
          const t = new Set((Array.isArray(v) ? v : [v]) as JsonType[]);
          if (t.has('number')) t.add('integer');
          f.types = f.types ? new Set([...f.types].filter((x) => t.has(x))) : t;
          break;
        }
        case 'const':
          if (f.const && JSON.stringify(f.const.value) !== JSON.stringify(v)) f.never = true;
          f.const = { value: v };
          break;
        case 'enum':
          f.enum = f.enum ? f.enum.filter((x) => (v as unknown[]).some((y) => JSON.stringify(x) === JSON.stringify(y))) : [...(v as unknown[])];
          break;
        case 'properties':
          for (const [p, s] of Object.entries(v as object)) {
            const list = f.properties.get(p) ?? [];
            list.push(s as SchemaNode);
            f.properties.set(p, list);
          }
          break;
        case 'required':
          for (const r of v as string[]) f.required.add(r);
          break;
        case 'additionalProperties':
          if (v !== true && !(typeof v === 'object' && v !== null && Object.keys(v).length === 0)) {
            f.openRules.push({
              known: new Set(Object.keys((a.properties as object) ?? {})),
              patterns: Object.keys((a.patternProperties as object) ?? {}).map((p) => new RegExp(p, 'u')),
              schema: isNotAnything(v) ? false : (v as SchemaNode),
              raw: v,
            });
          }
          break;
        case 'patternProperties':
          for (const [p, s] of Object.entries(v as object)) f.patternProperties.push({ re: new RegExp(p, 'u'), source: p, schemas: [s as SchemaNode] });
          break;
        case 'propertyNames':
          f.propertyNames.push(v as SchemaNode);
          break;
        case 'items':
          if (Array.isArray(v)) {
            // draft-07 tuple form
            v.forEach((s, i) => ((f.prefixItems[i] ??= []).push(s as SchemaNode)));
            if (a.additionalItems !== undefined && !f.unsupported.includes('additionalItems')) f.unsupported.push('additionalItems');
          } else f.items.push(v as SchemaNode);
          break;
        case 'prefixItems':
          (v as SchemaNode[]).forEach((s, i) => ((f.prefixItems[i] ??= []).push(s)));
          break;
        case 'minItems': f.minItems = Math.max(f.minItems ?? 0, v as number); break;
        case 'maxItems': f.maxItems = Math.min(f.maxItems ?? Infinity, v as number); break;
        case 'uniqueItems': f.uniqueItems ||= v === true; break;
        case 'minimum': f.minimum = Math.max(f.minimum ?? -Infinity, v as number); break;
        case 'maximum': f.maximum = Math.min(f.maximum ?? Infinity, v as number); break;
        case 'exclusiveMinimum':
          if (typeof v === 'number') f.exclusiveMinimum = Math.max(f.exclusiveMinimum ?? -Infinity, v);
          break;
        case 'exclusiveMaximum':
          if (typeof v === 'number') f.exclusiveMaximum = Math.min(f.exclusiveMaximum ?? Infinity, v);
          break;
        case 'multipleOf': f.multipleOf = v as number; break;
        case 'minLength': f.minLength = Math.max(f.minLength ?? 0, v as number); break;
        case 'maxLength': f.maxLength = Math.min(f.maxLength ?? Infinity, v as number); break;
        case 'pattern': f.patterns.push(v as string); break;
        case 'format': if (!f.formats.includes(v as string)) f.formats.push(v as string); break;
        case 'not':
          f.nots.push(v as SchemaNode);
          break;
        default:
          break; // allOf/anyOf/oneOf/$ref were expanded already
      }
    }
  }
  if (f.types && f.types.size === 0) f.never = true;
  return f;
}

/** `{ not: {} }` and `false` both forbid every value. */
export function isNotAnything(s: unknown): boolean {
  return s === false || (typeof s === 'object' && s !== null && 'not' in s && isEmptySchema((s as { not: unknown }).not));
}

export function isEmptySchema(s: unknown): boolean {
  return s === true || (typeof s === 'object' && s !== null && Object.keys(s).every((k) => ANNOTATIONS.has(k)));
}

/** Which rules govern a property key of an object described by `f`: the conjunct schemas, or `false`. */
export function propertySchemas(f: Flat, key: string): SchemaNode[] | false {
  const out: SchemaNode[] = [...(f.properties.get(key) ?? [])];
  for (const pp of f.patternProperties) if (pp.re.test(key)) out.push(...pp.schemas);
  for (const rule of f.openRules) {
    if (rule.known.has(key) || rule.patterns.some((re) => re.test(key))) continue;
    if (rule.schema === false) return false;
    out.push(rule.schema);
  }
  return out;
}
