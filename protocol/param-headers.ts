// x-mcp-header (SEP-2243; HM-10, HM-11): a tool's inputSchema may mark primitive properties whose
// call arguments an HTTP client mirrors into `Mcp-Param-{Name}` headers, so that intermediaries can
// route on them without reading the body. Here: reading and validating a tool's declarations, and
// the headers one call's arguments give.

import { encodeHeaderValue } from './http-headers.js';
import { isObj } from './jsonrpc.js';

export const PARAM_HEADER_PREFIX = 'Mcp-Param-';
const ANNOTATION = 'x-mcp-header';
/** RFC 9110 token characters (which also rules out spaces, CR, LF and other controls). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are data, not schemas: an x-mcp-header key inside them annotates nothing. */
const DATA_KEYWORDS = new Set(['default', 'examples', 'example', 'const', 'enum']);

export interface ParamHeaderDeclaration {
  /** The name after `Mcp-Param-`. */
  header: string;
  /** The chain of `properties` keys leading to the annotated property. */
  path: string[];
}

export type ParamHeaderDeclarations = { declarations: ParamHeaderDeclaration[]; problem?: undefined } | { declarations?: undefined; problem: string };

const pathName = (path: string[]) => (path.length ? path.join('.') : '(the schema root)');

/** The single primitive type a schema allows (a `null` alternative aside), if it has one. */
function primitiveType(schema: Record<string, unknown>): string | undefined {
  const t = Array.isArray(schema.type) ? schema.type.filter((x) => x !== 'null') : [schema.type];
  return t.length === 1 && typeof t[0] === 'string' && PRIMITIVE.has(t[0]) ? t[0] : undefined;
}

/**
 * The `x-mcp-header` declarations of an inputSchema, or the first reason the tool definition is
 * invalid (HM-10): a value that is not a non-empty token, a name used twice (case-insensitively), a
 * property that is not string, integer or boolean, or an annotation not reached through `properties`
 * keys alone.
 */
export function paramHeaderDeclarations(inputSchema: unknown): ParamHeaderDeclarations {
  const declarations: ParamHeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  let problem: string | undefined;
  const visit = (node: unknown, path: string[], reachable: boolean): void => {
    if (problem !== undefined) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, path, false);
      return;
    }
    if (!isObj(node)) return;
    if (ANNOTATION in node) {
      const name = node[ANNOTATION];
      if (!reachable || path.length === 0) problem = `${pathName(path)}: x-mcp-header is allowed only on a property reached through "properties" keys alone`;
      else if (typeof name !== 'string' || !TOKEN.test(name)) problem = `${pathName(path)}: x-mcp-header ${JSON.stringify(name)} is not a non-empty RFC 9110 token`;
      else if (seen.has(name.toLowerCase())) problem = `${pathName(path)}: x-mcp-header "${name}" is used twice (also on ${seen.get(name.toLowerCase())}), names compare case-insensitively`;
      else if (!primitiveType(node)) problem = `${pathName(path)}: x-mcp-header is allowed only on string, integer or boolean properties, not ${JSON.stringify(node.type ?? 'untyped')}`;
      if (problem !== undefined) return;
      seen.set((name as string).toLowerCase(), pathName(path));
      declarations.push({ header: name as string, path });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === ANNOTATION || DATA_KEYWORDS.has(key)) continue;
      if (key === 'properties' && isObj(value)) {
        for (const [prop, child] of Object.entries(value)) visit(child, [...path, prop], reachable);
      } else {
        visit(value, path, false);
      }
    }
  };
  visit(inputSchema, [], true);
  return problem === undefined ? { declarations } : { problem };
}

/** The value at a chain of property keys, if every step is an object. */
export function valueAtPath(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObj(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** A primitive argument as header text (HM-10: strings as they are, numbers in decimal, booleans as true/false); undefined for anything else. */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** The `Mcp-Param-*` headers for one call's arguments: one per declaration whose argument is present, encoded (HM-09). */
export function paramHeadersFor(declarations: ParamHeaderDeclaration[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of declarations) {
    const text = paramHeaderText(valueAtPath(args, d.path));
    if (text !== undefined) out[`${PARAM_HEADER_PREFIX}${d.header}`] = encodeHeaderValue(text);
  }
  return out;
}
