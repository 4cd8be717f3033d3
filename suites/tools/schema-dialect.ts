// Keywords of a tool schema that its dialect ignores where they stand (TE-04: a schema is read by its
// declared dialect, 2020-12 when it names none). A keyword only another dialect defines constrains
// nothing for a validator of the declared one: a 2020-12 keyword ($anchor, prefixItems, dependentRequired,
// unevaluatedProperties, ...) under an older `$schema`, a draft-07 one (additionalItems, dependencies)
// under 2020-12, or a then/else whose `if` is gone. What a server's schema tooling that relabels or
// strips keywords leaves behind.

import { isObj } from '../../protocol/jsonrpc.js';

export type Dialect = '2020-12' | 'older';

/** 2020-12 vocabulary that draft-04/06/07 do not define. */
const ONLY_2020 = ['$anchor', '$dynamicRef', '$dynamicAnchor', 'prefixItems', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'minContains', 'maxContains'];
/** draft-07 vocabulary that 2020-12 dropped (replaced by prefixItems/items and dependentRequired/dependentSchemas). */
const ONLY_OLDER = ['additionalItems', 'dependencies'];

/** The dialect a root `$schema` names: 2020-12 when absent; undefined for one this judge does not know (tools.input-schema judges those). */
export function dialectOf(schema: unknown): Dialect | undefined {
  const s = isObj(schema) ? schema.$schema : undefined;
  if (s === undefined) return '2020-12';
  if (typeof s !== 'string') return undefined;
  if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(s)) return '2020-12';
  if (/json-schema\.org\/draft-0[467]\/schema#?$/.test(s)) return 'older';
  return undefined;
}

/** Keywords whose values are schemas (one, a map of them, or a list). */
const ONE = ['additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

export interface IgnoredKeyword {
  pointer: string;
  keyword: string;
  why: string;
}

const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every keyword of `schema` that its dialect (declared at the root, or 2020-12) ignores where it stands. */
export function ignoredKeywords(schema: unknown): IgnoredKeyword[] {
  const dialect = dialectOf(schema);
  if (!dialect) return [];
  const out: IgnoredKeyword[] = [];
  const walk = (n: unknown, p: string): void => {
    if (!isObj(n)) return;
    for (const k of Object.keys(n)) {
      if (dialect === 'older' && ONLY_2020.includes(k)) out.push({ pointer: `${p}/${esc(k)}`, keyword: k, why: `a 2020-12 keyword under ${String((schema as { $schema?: unknown }).$schema)}, which ignores it` });
      if (dialect === '2020-12' && ONLY_OLDER.includes(k)) out.push({ pointer: `${p}/${esc(k)}`, keyword: k, why: 'a draft-07 keyword that 2020-12 (the dialect here) no longer defines' });
    }
    if (!('if' in n)) for (const k of ['then', 'else']) if (k in n) out.push({ pointer: `${p}/${k}`, keyword: k, why: `"${k}" without "if" beside it: never applied` });
    for (const k of ONE) walk(n[k], `${p}/${k}`);
    for (const k of MAP) if (isObj(n[k])) for (const [name, sub] of Object.entries(n[k] as Record<string, unknown>)) walk(sub, `${p}/${k}/${esc(name)}`);
    for (const k of LIST) if (Array.isArray(n[k])) (n[k] as unknown[]).forEach((sub, i) => walk(sub, `${p}/${k}/${i}`));
    if (Array.isArray(n.items)) n.items.forEach((sub, i) => walk(sub, `${p}/items/${i}`));
    else walk(n.items, `${p}/items`);
  };
  walk(schema, '');
  return out;
}
