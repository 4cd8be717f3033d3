import fc from 'fast-check';
import type { NearValid } from './near-valid.js';
import { definitionArbitraries, type SchemaArbitraries } from './schema-arbitraries.js';
import { loadSchema, SchemaLookupError, type SchemaDocument, type SchemaNode } from '../protocol/schema-registry.js';

export type MessageKind = 'request' | 'notification';
export type Direction = 'client-to-server' | 'server-to-client' | 'either';

/** One JSON-RPC method of a schema: the definitions of its request (or notification) and result. */
export interface MethodInfo {
  method: string;
  kind: MessageKind;
  direction: Direction;
  /** Definition of the whole JSON-RPC message (`CallToolRequest`). */
  definition: string;
  /** Definition of the bare result object, for requests (`CallToolResult`). */
  resultDefinition?: string;
  /** A request carried inside a result (2026-07-28 `inputRequests`): no `jsonrpc`/`id` of its own. */
  embedded: boolean;
}

/** Union definitions that group messages by sender; never indexed as messages themselves. */
const SENDER_UNIONS: [string, Direction][] = [
  ['ClientRequest', 'client-to-server'], ['ClientNotification', 'client-to-server'],
  ['ServerRequest', 'server-to-client'], ['ServerNotification', 'server-to-client'],
  ['InputRequest', 'server-to-client'],
];

/** The arbitraries of one message type. */
export interface MessageArbitraries extends SchemaArbitraries {
  definition: string;
}

const RESULT_OVERRIDES: Record<string, string> = {
  PingRequest: 'EmptyResult',
  SetLevelRequest: 'EmptyResult',
  SubscribeRequest: 'EmptyResult',
  UnsubscribeRequest: 'EmptyResult',
};

/** Index the request and notification definitions of a document by their `method` constant. */
export function methodIndex(doc: SchemaDocument): Map<string, MethodInfo> {
  const index = new Map<string, MethodInfo>();
  const directionOf = directions(doc);
  for (const name of doc.definitions()) {
    const kind: MessageKind | undefined = name.endsWith('Request') ? 'request' : name.endsWith('Notification') ? 'notification' : undefined;
    if (!kind || SENDER_UNIONS.some(([u]) => u === name)) continue;
    const method = methodConst(doc, doc.definition(name));
    if (!method) continue;
    // A `...Request` whose body lacks `jsonrpc` is a params shape, not a wire message: prefer the wire one.
    const existing = index.get(method);
    if (existing && existing.definition.length <= name.length) continue;
    let resultDefinition: string | undefined;
    if (kind === 'request') {
      const candidates = [RESULT_OVERRIDES[name], name.replace(/Request$/, 'Result'), 'EmptyResult', 'Result'];
      resultDefinition = candidates.find((c) => c && doc.definitions().includes(c));
    }
    const node = doc.definition(name);
    const embedded = typeof node === 'object' && !!node.properties && !('jsonrpc' in (node.properties as object));
    index.set(method, { method, kind, direction: directionOf.get(name) ?? 'either', definition: name, resultDefinition, embedded });
  }
  return index;
}

function methodConst(doc: SchemaDocument, node: SchemaNode, depth = 0): string | undefined {
  if (typeof node !== 'object' || depth > 4) return undefined;
  const props = node.properties as Record<string, Record<string, unknown>> | undefined;
  if (props?.method && typeof props.method.const === 'string') return props.method.const;
  if (typeof node.$ref === 'string') return methodConst(doc, doc.resolveRef(node.$ref), depth + 1);
  for (const part of (node.allOf as SchemaNode[] | undefined) ?? []) {
    const m = methodConst(doc, part, depth + 1);
    if (m) return m;
  }
  return undefined;
}

/** Which side sends each message, read from the ClientRequest/ServerNotification/... unions. */
function directions(doc: SchemaDocument): Map<string, Direction> {
  const out = new Map<string, Direction>();
  for (const [union, dir] of SENDER_UNIONS) {
    if (!doc.definitions().includes(union)) continue;
    const node = doc.definition(union);
    const refs = typeof node === 'object' ? ((node.anyOf ?? node.oneOf ?? []) as { $ref?: string }[]) : [];
    for (const r of refs) {
      const name = r.$ref?.split('/').pop();
      if (!name) continue;
      const prev = out.get(name);
      out.set(name, prev && prev !== dir ? 'either' : dir);
    }
  }
  return out;
}

/**
 * Typed access to the generated messages of one MCP schema:
 * `messages('2026-07-28').request('tools/call').valid`.
 */
export class McpMessages {
  readonly index: Map<string, MethodInfo>;

  constructor(
    readonly doc: SchemaDocument,
    readonly specVersion: string,
  ) {
    this.index = methodIndex(doc);
  }

  /** Every method the schema defines, optionally filtered by kind and sender. */
  methods(filter: { kind?: MessageKind; direction?: Exclude<Direction, 'either'> } = {}): MethodInfo[] {
    return [...this.index.values()].filter(
      (m) => (!filter.kind || m.kind === filter.kind) && (!filter.direction || m.direction === filter.direction || m.direction === 'either'),
    );
  }

  info(method: string, kind: MessageKind): MethodInfo {
    const m = this.index.get(method);
    if (!m || m.kind !== kind) {
      const known = this.methods({ kind }).map((x) => x.method).join(', ');
      throw new SchemaLookupError(`no ${kind} "${method}" in the ${this.specVersion} schema; known: ${known}`);
    }
    return m;
  }

  /** A whole JSON-RPC request for `method`, with its exact method constant and params. */
  request(method: string): MessageArbitraries {
    return this.of(this.info(method, 'request').definition);
  }

  notification(method: string): MessageArbitraries {
    return this.of(this.info(method, 'notification').definition);
  }

  /** The bare result object a server (or client) returns for `method`. */
  result(method: string): MessageArbitraries {
    const def = this.info(method, 'request').resultDefinition;
    if (!def) throw new SchemaLookupError(`no result definition for "${method}" in the ${this.specVersion} schema`);
    return this.of(def);
  }

  /** A whole JSON-RPC response carrying a valid result for `method` (near-valid: the result breaks). */
  response(method: string): { valid: fc.Arbitrary<unknown>; nearValid: fc.Arbitrary<NearValid> } {
    const result = this.result(method);
    const id = fc.oneof(fc.nat({ max: 10_000 }), fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), minLength: 1, maxLength: 12 }));
    return {
      valid: fc.tuple(id, result.valid).map(([i, r]) => ({ jsonrpc: '2.0', id: i, result: r })),
      nearValid: fc.tuple(id, result.nearValid).map(([i, nv]) => ({
        value: { jsonrpc: '2.0', id: i, result: nv.value },
        label: { ...nv.label, path: `/result${nv.label.path}` },
      })),
    };
  }

  /** Any definition of the schema, by name. */
  of(definition: string): MessageArbitraries {
    // Keep nearValid a lazy getter: spreading would build it now, and some definitions have none.
    const arbs = definitionArbitraries(this.doc, definition, { specVersion: this.specVersion, maxDepth: 4 });
    return Object.defineProperty(arbs, 'definition', { value: definition, enumerable: true }) as MessageArbitraries;
  }
}

const cache = new Map<string, McpMessages>();

/** Message arbitraries for a spec version (`2026-07-28`, `2025-11-25`, `2025-06-18`) or a schema key. */
export function messages(specVersion: string): McpMessages {
  let m = cache.get(specVersion);
  if (!m) cache.set(specVersion, (m = new McpMessages(loadSchema(specVersion), specVersion)));
  return m;
}
