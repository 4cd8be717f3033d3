// A client harness on @modelcontextprotocol/client 2.x, written to the official conformance suite's
// client contract and nothing else: the server URL is its last argument, the scenario name is
// MCP_CONFORMANCE_SCENARIO (a name it has no handler for ends it at once with exit 1), the JSON of
// MCP_CONFORMANCE_CONTEXT carries what a scenario needs beyond that (http-custom-headers: the tool
// calls to make; http-invalid-tool-headers: none, every tool listed is called), and MCP_CONFORMANCE_PROTOCOL_VERSION says which era to speak where a scenario spans
// both (2026-07-28: server/discover first, falling back to initialize; otherwise initialize).
// test/e2e/official-harness.test.ts runs this file unchanged under the official suite and under
// `mcpspec client --http --official-harness`.
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { connectWithOAuth, headlessProvider, withReauthorization } from './headless-oauth.mjs';

const url = new URL(process.argv.at(-1));
const modern = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === '2026-07-28';
const info = (name) => ({ name, version: '1.0.0' });
const negotiate = (on) => (on ? { versionNegotiation: { mode: 'auto' } } : {});

function context() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) throw new Error('MCP_CONFORMANCE_CONTEXT is not set');
  return JSON.parse(raw);
}

/** Connect, list the tools, call the named one when the server lists it (`required`: fail when it does not). */
async function listAndCall(client, toolName, args, required = false) {
  await client.connect(new StreamableHTTPClientTransport(url));
  const { tools } = await client.listTools();
  if (tools.some((t) => t.name === toolName)) await client.callTool({ name: toolName, arguments: args });
  else if (required) throw new Error(`the server lists no ${toolName} tool`);
  await client.close();
}

/** OAuth as a user who approves at once would (with pre-registered credentials when given), then list the tools and call one. */
async function authorized(staticClient) {
  const client = new Client(info('official-harness-sdk2-auth'), { capabilities: {}, ...negotiate(modern) });
  const provider = headlessProvider(staticClient);
  const transport = await connectWithOAuth(client, () => new StreamableHTTPClientTransport(url, { authProvider: provider }), provider, UnauthorizedError, true);
  await withReauthorization(() => client.listTools(), transport, provider, UnauthorizedError, true);
  await withReauthorization(() => client.callTool({ name: 'test-tool', arguments: {} }), transport, provider, UnauthorizedError, true);
  await client.close();
}

/** A multi-round-trip flow: the SDK answers the embedded elicitation and retries; each call's result is whatever the server ends with. */
async function requestState() {
  const client = new Client(info('official-harness-sdk2-mrtr'), { capabilities: { elicitation: {} }, ...negotiate(true) });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirmed: true } }));
  await client.connect(new StreamableHTTPClientTransport(url));
  for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type']) {
    // A result the SDK refuses (no resultType) ends that call only.
    await client.callTool({ name, arguments: {} }).catch((e) => console.error(`${name}: ${e.message}`));
  }
  await client.close();
}

const AUTH = ['auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3', 'auth/basic-cimd', 'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported', 'auth/scope-omitted-when-undefined', 'auth/scope-step-up', 'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none', 'auth/resource-mismatch', 'auth/metadata-issuer-mismatch', 'auth/iss-supported', 'auth/iss-not-advertised', 'auth/iss-supported-missing', 'auth/iss-wrong-issuer', 'auth/iss-unexpected', 'auth/iss-normalized', 'auth/authorization-server-migration', 'auth/scope-retry-limit'];

/** List the tools, then pass back the inputSchema the SDK holds for the focal tool through the echo tool. */
async function echoSchema() {
  const client = new Client(info('official-harness-sdk2-schema'), { capabilities: {}, ...negotiate(modern) });
  await client.connect(new StreamableHTTPClientTransport(url));
  const { tools } = await client.listTools();
  const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
  if (!focal) throw new Error('the server lists no json_schema_2020_12_tool');
  await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } });
  await client.close();
}

const handlers = {
  'json-schema-2020-12-preservation': echoSchema,
  initialize: () => listAndCall(new Client(info('official-harness-sdk2'), { capabilities: {} }), undefined),
  tools_call: () => listAndCall(new Client(info('official-harness-sdk2'), { capabilities: {}, ...negotiate(modern) }), 'add_numbers', { a: 5, b: 3 }),
  'sse-retry': () => listAndCall(new Client(info('official-harness-sdk2-sse'), { capabilities: {} }), 'test_reconnection', {}, true),
  'elicitation-sep1034-client-defaults': () => {
    const client = new Client(info('official-harness-sdk2-elicitation'), { capabilities: { elicitation: { form: { applyDefaults: true } } } });
    // Accept with nothing filled in: the SDK fills the schema's defaults.
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
    return listAndCall(client, 'test_client_elicitation_defaults', {}, true);
  },
  'request-metadata': async () => {
    const client = new Client(info('official-harness-sdk2-meta'), { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} }, ...negotiate(true) });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.close();
  },
  'http-custom-headers': async () => {
    const client = new Client(info('official-harness-sdk2-headers'), { capabilities: {}, ...negotiate(true) });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.listTools(); // the x-mcp-header declarations the calls are mirrored by
    for (const call of context().toolCalls ?? []) await client.callTool({ name: call.name, arguments: call.arguments });
    await client.close();
  },
  // Tools whose x-mcp-header is invalid are left out of the SDK's tools/list result: call every tool it returns.
  'http-invalid-tool-headers': async () => {
    const client = new Client(info('official-harness-sdk2-invalid-tools'), { capabilities: {}, ...negotiate(true) });
    await client.connect(new StreamableHTTPClientTransport(url));
    const { tools } = await client.listTools();
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
    await client.close();
  },
  'sep-2322-client-request-state': requestState,
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
