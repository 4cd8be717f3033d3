// The official conformance suite's client scenarios (@modelcontextprotocol/conformance 0.2.0-alpha.12)
// that mcpspec names to a harness written for that suite: a harness dispatches on the name alone, so
// these are the words it knows. Facts of that suite, not mcpspec's choices (those are in
// official-harness-map.ts): when the suite runs each one, and which of its servers' tools a harness
// looks for in the tools/list answer before calling.

import type { SpecVersion } from '../../protocol/versions.js';

const LEGACY_AND_MODERN: SpecVersion[] = ['2025-11-25', '2026-07-28'];
const EVERY: SpecVersion[] = ['2025-06-18', '2025-11-25', '2026-07-28'];
const MODERN_ONLY: SpecVersion[] = ['2026-07-28'];

/** Each official client scenario mcpspec uses, with the spec versions the official suite runs it at. */
export const OFFICIAL_CLIENT_SCENARIOS = {
  initialize: ['2025-06-18', '2025-11-25'],
  tools_call: EVERY,
  'elicitation-sep1034-client-defaults': ['2025-11-25'],
  'sse-retry': ['2025-11-25'],
  'request-metadata': MODERN_ONLY,
  'sep-2322-client-request-state': MODERN_ONLY,
  'http-custom-headers': MODERN_ONLY,
  'http-invalid-tool-headers': MODERN_ONLY,
  // In neither requirement set (added after the release): the suite runs it only when named.
  'json-schema-2020-12-preservation': [],
  'auth/metadata-default': LEGACY_AND_MODERN,
  'auth/metadata-var1': LEGACY_AND_MODERN,
  'auth/metadata-var2': LEGACY_AND_MODERN,
  'auth/basic-cimd': LEGACY_AND_MODERN,
  'auth/scope-from-www-authenticate': LEGACY_AND_MODERN,
  'auth/scope-from-scopes-supported': LEGACY_AND_MODERN,
  'auth/scope-omitted-when-undefined': LEGACY_AND_MODERN,
  'auth/scope-step-up': LEGACY_AND_MODERN,
  'auth/token-endpoint-auth-basic': EVERY,
  'auth/token-endpoint-auth-none': EVERY,
  'auth/token-endpoint-auth-post': EVERY,
  'auth/pre-registration': LEGACY_AND_MODERN,
  'auth/scope-retry-limit': LEGACY_AND_MODERN,
  'auth/resource-mismatch': MODERN_ONLY,
  'auth/authorization-server-migration': MODERN_ONLY,
  'auth/metadata-issuer-mismatch': MODERN_ONLY,
  'auth/iss-not-advertised': MODERN_ONLY,
  'auth/iss-supported-missing': MODERN_ONLY,
  'auth/iss-wrong-issuer': MODERN_ONLY,
  'auth/iss-unexpected': MODERN_ONLY,
  'auth/iss-normalized': MODERN_ONLY,
  // An extension scenario: in no revision's requirement set; the suite runs it only when it is named,
  // at 2026-07-28 unless told otherwise.
  'sep-2640-client-no-prefetch': [],
  'sep-2640-client-verify-digest': [],
  'sep-2640-client-verify-size': [],
  'sep-2640-client-verify-frontmatter': [],
} satisfies Record<string, SpecVersion[]>;

export type OfficialClientScenario = keyof typeof OFFICIAL_CLIENT_SCENARIOS;

export function isOfficialClientScenario(name: string): name is OfficialClientScenario {
  return Object.hasOwn(OFFICIAL_CLIENT_SCENARIOS, name);
}

/**
 * The version the official suite tells a harness (MCP_CONFORMANCE_PROTOCOL_VERSION) when it is not
 * given one: 2026-07-28 for a scenario that exists only there or is an extension's, else 2025-11-25.
 */
export function officialDefaultVersion(name: OfficialClientScenario): SpecVersion {
  const versions: SpecVersion[] = OFFICIAL_CLIENT_SCENARIOS[name];
  // An extension scenario (in no revision's set) is run at 2026-07-28 too.
  return versions.length === 0 || (versions.length === 1 && versions[0] === '2026-07-28') ? '2026-07-28' : '2025-11-25';
}

const noArguments = { type: 'object', properties: {} };

/**
 * The tools an official scenario's server lists that harnesses look up in tools/list by name (and give
 * up without). Tools a harness calls without looking (auth's test-tool, the request-state tools) need
 * no listing: mcpspec's scripted server answers a call to any tool name.
 */
export const OFFICIAL_FIXTURE_TOOLS: Partial<Record<OfficialClientScenario, Record<string, unknown>[]>> = {
  tools_call: [{ name: 'add_numbers', description: 'Adds a and b (listed for harnesses written to the official suite)', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }],
  'sse-retry': [{ name: 'test_reconnection', description: 'Listed for harnesses written to the official suite; answered like any call', inputSchema: noArguments }],
  'elicitation-sep1034-client-defaults': [{ name: 'test_client_elicitation_defaults', description: 'Listed for harnesses written to the official suite; answered like any call', inputSchema: noArguments }],
  // The harness passes back what it holds of the first tool's inputSchema through the second (mcpspec's schema, the official names).
  'json-schema-2020-12-preservation': [
    {
      name: 'json_schema_2020_12_tool',
      description: 'A tool schema in JSON Schema 2020-12 (listed for harnesses written to the official suite)',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { code: { $anchor: 'code', type: 'string', pattern: '^[A-Z]{3}$' } },
        properties: { from: { $ref: '#/$defs/code' }, to: { $ref: '#/$defs/code' }, returnDate: { type: 'string' }, oneWay: { type: 'boolean' } },
        required: ['from', 'to'],
        anyOf: [{ required: ['oneWay'] }, { required: ['returnDate'] }],
        allOf: [{ not: { required: ['oneWay', 'returnDate'] } }],
        if: { properties: { oneWay: { const: false } }, required: ['oneWay'] },
        then: { required: ['returnDate'] },
        else: { properties: { returnDate: false } },
        additionalProperties: false,
      },
    },
    { name: 'json_schema_echo', description: 'Pass back, as the argument schema, the inputSchema you hold for json_schema_2020_12_tool.', inputSchema: { type: 'object', properties: { schema: { type: 'object' } }, required: ['schema'] } },
  ],
};
