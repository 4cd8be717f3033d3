// A client harness on the 1.x SDK (@modelcontextprotocol/sdk), written to the official conformance
// suite's client contract and nothing else: the server URL is its last argument, the scenario name is
// MCP_CONFORMANCE_SCENARIO (MCP_CONFORMANCE_CONTEXT: the pre-registered credentials of auth/pre-registration), and it does what that scenario's server expects (by name, as the SDKs'
// own harnesses do); a name it has no handler for ends it at once with exit 1. The 1.x SDK speaks
// 2025 only, so MCP_CONFORMANCE_PROTOCOL_VERSION changes nothing here.
// test/e2e/official-harness.test.ts runs this file unchanged under the official suite and under
// `mcpspec client --http --official-harness`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectWithOAuth, headlessProvider, withReauthorization } from './headless-oauth.mjs';

const url = new URL(process.argv.at(-1));
const info = (name) => ({ name, version: '1.0.0' });

function context() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) throw new Error('MCP_CONFORMANCE_CONTEXT is not set');
  return JSON.parse(raw);
}

/** Connect, list the tools, call the named one when the server lists it (`required`: fail when it does not). */
async function listAndCall(client, toolName, args, required = false) {
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  const { tools } = await client.listTools();
  if (tools.some((t) => t.name === toolName)) await client.callTool({ name: toolName, arguments: args });
  else if (required) throw new Error(`the server lists no ${toolName} tool`);
  await transport.close();
}

/** OAuth as a user who approves at once would (with pre-registered credentials when given), then list the tools and call one. */
async function authorized(staticClient) {
  const client = new Client(info('official-harness-sdk1-auth'), { capabilities: {} });
  const provider = headlessProvider(staticClient);
  const transport = await connectWithOAuth(client, () => new StreamableHTTPClientTransport(url, { authProvider: provider }), provider, UnauthorizedError);
  await withReauthorization(() => client.listTools(), transport, provider, UnauthorizedError);
  await withReauthorization(() => client.callTool({ name: 'test-tool', arguments: {} }), transport, provider, UnauthorizedError);
  await transport.close();
}

const AUTH = ['auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3', 'auth/basic-cimd', 'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported', 'auth/scope-omitted-when-undefined', 'auth/scope-step-up', 'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none', 'auth/resource-mismatch', 'auth/metadata-issuer-mismatch', 'auth/iss-supported', 'auth/iss-not-advertised', 'auth/iss-supported-missing', 'auth/iss-wrong-issuer', 'auth/iss-unexpected', 'auth/iss-normalized', 'auth/authorization-server-migration', 'auth/scope-retry-limit'];

/** List the tools, then pass back the inputSchema the SDK holds for the focal tool through the echo tool. */
async function echoSchema() {
  const client = new Client(info('official-harness-sdk1-schema'), { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  const { tools } = await client.listTools();
  const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
  if (!focal) throw new Error('the server lists no json_schema_2020_12_tool');
  await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } });
  await transport.close();
}

const handlers = {
  'json-schema-2020-12-preservation': echoSchema,
  initialize: () => listAndCall(new Client(info('official-harness-sdk1'), { capabilities: {} }), undefined),
  tools_call: () => listAndCall(new Client(info('official-harness-sdk1'), { capabilities: {} }), 'add_numbers', { a: 5, b: 3 }),
  'sse-retry': () => listAndCall(new Client(info('official-harness-sdk1-sse'), { capabilities: {} }), 'test_reconnection', {}, true),
  'elicitation-sep1034-client-defaults': () => {
    const client = new Client(info('official-harness-sdk1-elicitation'), { capabilities: { elicitation: { form: { applyDefaults: true } } } });
    // Accept with nothing filled in: the SDK fills the schema's defaults.
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
    return listAndCall(client, 'test_client_elicitation_defaults', {}, true);
  },
  ...Object.fromEntries(AUTH.map((name) => [name, () => authorized()])),
  // The context carries the client the authorization server knows (it has no registration endpoint).
  'auth/pre-registration': () => authorized({ client_id: context().client_id, client_secret: context().client_secret }),
};

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const handler = handlers[scenario];
if (!handler) {
  console.error(`Unknown scenario: ${scenario} (this harness knows ${Object.keys(handlers).join(', ')})`);
  process.exit(1);
}
try {
  await handler();
  process.exit(0);
} catch (e) {
  console.error(`${scenario}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
