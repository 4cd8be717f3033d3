import type fc from 'fast-check';
import { NearValidBuilder, type NearValid } from './near-valid.js';
import { schemaFromObject, type SchemaDocument, type SchemaNode } from '../protocol/schema-registry.js';
import { ValidBuilder, type GenOptions } from './valid.js';

/** The valid and near-valid arbitraries of one schema node. */
export interface SchemaArbitraries<T = unknown> {
  valid: fc.Arbitrary<T>;
  nearValid: fc.Arbitrary<NearValid<unknown>>;
  /** ajv's verdict for this node, for checking values against it. */
  validate(value: unknown): boolean;
}

const builders = new WeakMap<SchemaDocument, Map<string, { valid: ValidBuilder; near: NearValidBuilder }>>();

function buildersFor(doc: SchemaDocument, options: GenOptions) {
  let perDoc = builders.get(doc);
  if (!perDoc) builders.set(doc, (perDoc = new Map()));
  const key = JSON.stringify(options);
  let b = perDoc.get(key);
  if (!b) {
    const valid = new ValidBuilder(doc, options);
    b = { valid, near: new NearValidBuilder(doc, valid) };
    perDoc.set(key, b);
  }
  return b;
}

/** Arbitraries for a definition (`CallToolRequest`, `#/$defs/JSONRPCMessage`) of a loaded document. */
export function definitionArbitraries(doc: SchemaDocument, ref: string, options: GenOptions = {}): SchemaArbitraries {
  const node = doc.definition(ref);
  return nodeArbitraries(doc, node, options);
}

function nodeArbitraries(doc: SchemaDocument, node: SchemaNode, options: GenOptions): SchemaArbitraries {
  const { valid, near } = buildersFor(doc, options);
  // Compiled on first use: ajv compiles cost a few ms each, and most callers only generate.
  let check: ((v: unknown) => unknown) | undefined;
  let nearArb: fc.Arbitrary<NearValid> | undefined;
  return {
    valid: valid.arbitrary([node]),
    // Built on first use: a schema that accepts everything has no near-valid values.
    get nearValid() {
      return (nearArb ??= near.arbitrary([node]));
    },
    validate: (v) => (check ??= doc.validatorForNodes([node]))(v) as boolean,
  };
}

/** Arbitraries for any JSON Schema object, such as a tool's `inputSchema`. */
export function schemaArbitraries(schema: Record<string, unknown>, options: GenOptions = {}): SchemaArbitraries {
  const doc = schemaFromObject(schema);
  return nodeArbitraries(doc, doc.root, options);
}

/** Values that satisfy `schema`. */
export function valid(schema: Record<string, unknown>, options: GenOptions = {}): fc.Arbitrary<unknown> {
  return schemaArbitraries(schema, options).valid;
}

/** Values that break exactly one constraint of `schema`, with the label of what was broken. */
export function nearValid(schema: Record<string, unknown>, options: GenOptions = {}): fc.Arbitrary<NearValid> {
  return schemaArbitraries(schema, options).nearValid;
}
