// mcpspec's choices for a client harness written to the official conformance suite's contract
// (`mcpspec client --http --official-harness`): which official scenario name each of mcpspec's client
// scenarios gives it in MCP_CONFORMANCE_SCENARIO, and the context JSON (MCP_CONFORMANCE_CONTEXT) that
// goes with a name where the official suite passes one. A harness does what the name asks; the
// name chosen is the official scenario whose client behaviour the mcpspec scenario needs to see.

import type { SpecVersion } from '../../protocol/versions.js';
import { OFFICIAL_CLIENT_SCENARIOS, type OfficialClientScenario } from './official-scenario-names.js';
import { TOOL, TYPED_TOOL } from './scripted-server.js';
import { PRE_REGISTERED_CLIENT } from '../authorization/authorization-server.js';

/** The client driver's first run, against the plain dual-era scripted server (it decides the era and what the client declares). */
export const START_RUN = 'start';

export interface HarnessRow {
  /** A client scenario id, or START_RUN. */
  scenario: string;
  /** The official names, best first: the first the official suite runs at the version under test is given. */
  names: OfficialClientScenario[];
  why: string;
}

/** The plain OAuth flow where no official scenario has mcpspec's twist (auth/token-endpoint-auth-none where metadata-default does not run). */
const PLAIN_OAUTH: OfficialClientScenario[] = ['auth/metadata-default', 'auth/token-endpoint-auth-none'];

/** One row per client scenario that can run over HTTP (the official contract is HTTP only). */
export const HARNESS_MAP: HarnessRow[] = [
  { scenario: START_RUN, names: ['tools_call'], why: 'connect, list the tools, call one: the official scenario every harness knows, at every version' },
  { scenario: 'client-modern', names: ['request-metadata'], why: 'a 2026-07-28-only server judging per-request _meta and discovery, as the official request-metadata does' },
  { scenario: 'client-legacy', names: ['elicitation-sep1034-client-defaults', 'initialize', 'tools_call'], why: 'a legacy server that asks the client for what it declared after initialize: the official scenario whose harness declares elicitation and answers it (initialize at 2025-06-18; tools_call at 2026-07-28, where a harness negotiates and must fall back)' },
  { scenario: 'client-legacy-400', names: ['tools_call'], why: 'no official counterpart (a legacy server refusing modern requests as the 1.x SDK does): the plain flow, negotiated at 2026-07-28' },
  { scenario: 'client-counteroffer', names: ['request-metadata'], why: 'modern requests refused with -32022 naming other versions: the official request-metadata judges the retry with a supported version' },
  { scenario: 'client-unsupported-version', names: ['initialize', 'tools_call'], why: 'judged on the initialize handshake (tools_call at 2026-07-28, where the official initialize does not run)' },
  { scenario: 'client-newest-version', names: ['initialize', 'tools_call'], why: 'judged on the version initialize offers (tools_call at 2026-07-28)' },
  { scenario: 'client-caching', names: ['http-custom-headers'], why: 'the harness lists tools, then makes the calls the context names (mcpspec\'s echo tool): a list then calls shows whether a fresh list is fetched again, and the calls\' Mcp-Param-Text headers are judged (client.http-param-headers)' },
  { scenario: 'client-param-types', names: ['http-custom-headers'], why: 'the harness lists tools, then makes the calls the context names: here one call of the listed typed tool, with an integer and a boolean argument declared x-mcp-header and a text one not (client.http-param-encoding, client.http-param-unannotated)' },
  { scenario: 'client-invalid-tools', names: ['http-invalid-tool-headers'], why: 'tools whose x-mcp-header declarations are invalid listed before valid_tool (the official scenario\'s tool names): the harness lists the tools and calls those it keeps' },
  { scenario: 'client-input-required', names: ['sep-2322-client-request-state'], why: 'input_required rounds with requestState: the official request-state scenario' },
  { scenario: 'client-input-required-stateless', names: ['sep-2322-client-request-state'], why: 'input_required without requestState: the official request-state scenario has that case too' },
  { scenario: 'client-result-type', names: ['sep-2322-client-request-state'], why: 'results with no or an unknown resultType: the official request-state scenario judges a missing one' },
  { scenario: 'client-tool-schemas', names: ['json-schema-2020-12-preservation'], why: 'a tool schema in JSON Schema 2020-12 (and a $ref to a network URI, which listing shows): the official preservation scenario, whose harness passes the schema it holds back through json_schema_echo (in no requirement set, so named alone: the plain flow would come first)' },
  { scenario: 'client-elicitation-forms', names: ['elicitation-sep1034-client-defaults', 'tools_call'], why: 'a tools/call answered with a form of defaulted and enum fields: the official scenario whose harness calls a tool and accepts its form with the defaults' },
  { scenario: 'client-tasks', names: ['tools_call'], why: 'no official client scenario for tasks: the plain flow (a harness that declares the tasks extension is judged on it)' },
  { scenario: 'client-skills-tampered', names: ['sep-2640-client-verify-digest', 'sep-2640-client-verify-size', 'sep-2640-client-verify-frontmatter'], why: 'three skills whose SKILL.md fails its digest, size or front-matter check: the official verify scenarios, whose harness loads the skill it is offered' },
  { scenario: 'client-skills', names: ['sep-2640-client-no-prefetch'], why: 'a server offering one skill nothing needs: the official no-prefetch scenario, whose harness lists the skills and loads none' },
  { scenario: 'client-tasks-legacy', names: ['tools_call'], why: 'no official client scenario for tasks: the plain flow' },
  { scenario: 'client-sse', names: ['tools_call'], why: 'every answer an SSE stream: the plain flow is what is needed' },
  { scenario: 'client-sse-polling', names: ['sse-retry'], why: 'answers by polling (a retry field, the stream closed, Last-Event-ID): the official sse-retry' },
  { scenario: 'client-broken-stream', names: ['tools_call'], why: 'no official counterpart (answer streams closed before the answer): the plain flow' },
  { scenario: 'client-near-valid', names: ['tools_call'], why: 'results near the schema\'s edge: the plain flow' },
  { scenario: 'client-authorization', names: PLAIN_OAUTH, why: 'the plain OAuth flow' },
  { scenario: 'client-authorization-well-known', names: ['auth/metadata-var2'], why: 'no resource_metadata in the challenge, an issuer with a path' },
  { scenario: 'client-authorization-oidc', names: ['auth/metadata-var1'], why: 'an issuer without a path, found through OpenID Connect discovery' },
  { scenario: 'client-authorization-expiry', names: PLAIN_OAUTH, why: 'no official counterpart (a token that expires): the plain OAuth flow' },
  { scenario: 'client-authorization-scope-unlisted', names: ['auth/scope-from-www-authenticate'], why: 'the challenge\'s scope is the one to ask for' },
  { scenario: 'client-authorization-scope-from-metadata', names: ['auth/scope-from-scopes-supported'], why: 'no scope in the challenge: scopes_supported' },
  { scenario: 'client-authorization-no-scope', names: ['auth/scope-omitted-when-undefined'], why: 'no scope anywhere' },
  { scenario: 'client-authorization-confidential', names: ['auth/token-endpoint-auth-basic'], why: 'the authorization server takes client_secret_basic only' },
  { scenario: 'client-authorization-cimd', names: ['auth/basic-cimd'], why: 'client ID metadata documents advertised' },
  { scenario: 'client-authorization-wrong-resource', names: ['auth/resource-mismatch'], why: 'resource metadata naming another resource' },
  { scenario: 'client-authorization-moved', names: ['auth/authorization-server-migration'], why: 'the resource moves to another authorization server' },
  { scenario: 'client-authorization-wrong-issuer', names: ['auth/metadata-issuer-mismatch'], why: 'authorization server metadata naming another issuer' },
  { scenario: 'client-authorization-no-pkce', names: PLAIN_OAUTH, why: 'no official counterpart (no PKCE advertised): the plain OAuth flow, which a client must not finish' },
  { scenario: 'client-authorization-wrong-iss', names: ['auth/iss-wrong-issuer'], why: 'an authorization response with another issuer\'s iss' },
  { scenario: 'client-authorization-iss-absent', names: ['auth/iss-supported-missing'], why: 'iss advertised, absent from the response' },
  { scenario: 'client-authorization-iss-unadvertised', names: ['auth/iss-unexpected'], why: 'iss not advertised, another issuer\'s in the response' },
  { scenario: 'client-authorization-iss-trailing-slash', names: ['auth/iss-normalized'], why: 'iss equal to the issuer only after normalization' },
  { scenario: 'client-authorization-no-iss', names: ['auth/iss-not-advertised'], why: 'no iss anywhere' },
  { scenario: 'client-authorization-wrong-state', names: PLAIN_OAUTH, why: 'no official counterpart (another state in the response): the plain OAuth flow' },
  { scenario: 'client-authorization-state-absent', names: PLAIN_OAUTH, why: 'no official counterpart (no state in the response): the plain OAuth flow' },
  { scenario: 'client-authorization-step-up', names: ['auth/scope-step-up'], why: '403 insufficient_scope on a tools/call' },
  { scenario: 'client-authorization-secret-post', names: ['auth/token-endpoint-auth-post'], why: 'the authorization server takes client_secret_post only' },
  { scenario: 'client-authorization-public', names: ['auth/token-endpoint-auth-none'], why: 'the authorization server registers public clients only (none)' },
  { scenario: 'client-authorization-pre-registered', names: ['auth/pre-registration'], why: 'no dynamic registration: the pre-registered credentials in the context' },
  { scenario: 'client-authorization-root-resource', names: ['auth/metadata-var2'], why: 'no resource_metadata in the challenge, the resource metadata only at the root URI, about the origin' },
  { scenario: 'client-authorization-scope-retry', names: ['auth/scope-retry-limit'], why: '403 insufficient_scope on every tools/call, whatever the scope' },
];

/** Given after a refused name: OAuth rows try the plain OAuth flow first; every row ends with the plain flow. */
const FALLBACK_OAUTH: OfficialClientScenario[] = ['auth/metadata-default'];
const FALLBACK: OfficialClientScenario[] = ['tools_call', 'initialize'];

/**
 * The official names to give a harness in one client run of `scenario`, in the order to try them:
 * first the row's first name the official suite runs at `version` (the row's first when none is),
 * then, after a refusal (the harness exits before sending anything), the row's other names that
 * run at `version`, the plain OAuth flow for an OAuth row, and the plain flow.
 */
export function officialNamesFor(scenario: string, version: SpecVersion): OfficialClientScenario[] {
  const row = HARNESS_MAP.find((r) => r.scenario === scenario);
  const names = row?.names ?? [];
  const runs = names.filter((n) => (OFFICIAL_CLIENT_SCENARIOS[n] as SpecVersion[]).includes(version));
  const oauth = names.some((n) => n.startsWith('auth/')) ? FALLBACK_OAUTH : [];
  return [...new Set([...(runs.length ? runs : names.slice(0, 1)), ...oauth, ...FALLBACK])];
}

/** Two calls of mcpspec's echo tool: a plain text, and one its Mcp-Param-Text header must carry in Base64 (non-ASCII, edge spaces). */
const ECHO_CALLS = [
  { name: TOOL.name, arguments: { text: 'mcpspec' } },
  { name: TOOL.name, arguments: { text: ' Grüße, 世界 ' } },
];

/** One call of the typed tool the client-param-types scenario lists: an integer and a boolean argument declared x-mcp-header, a text one not. */
const TYPED_CALLS = [{ name: TYPED_TOOL.name, arguments: { text: 'mcpspec', count: 42, enabled: true } }];

/**
 * The context the official suite passes with a name (MCP_CONFORMANCE_CONTEXT, `{ name, ... }`), with
 * the values mcpspec's scripted server uses (in `scenario`, the mcpspec scenario it runs for); undefined where the official suite passes none.
 */
export function officialContext(name: OfficialClientScenario, scenario?: string): Record<string, unknown> | undefined {
  if (name === 'http-custom-headers') return { name, toolCalls: scenario === 'client-param-types' ? TYPED_CALLS : ECHO_CALLS };
  if (name === 'auth/pre-registration') return { name, client_id: PRE_REGISTERED_CLIENT.clientId, client_secret: PRE_REGISTERED_CLIENT.secret };
  return undefined;
}
