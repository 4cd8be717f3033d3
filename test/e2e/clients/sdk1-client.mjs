// A small client on the 1.x SDK (@modelcontextprotocol/sdk), for mcpspec's real-client tests:
// `--http URL` or `--stdio <server command...>` (it declares elicitation and sampling, not roots); lists and uses a tool, a prompt and a resource.
// Over HTTP it authorizes when the server answers 401 (the SDK's OAuth, with a browserless provider).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectWithOAuth, headlessProvider, staticClientFromEnv, withReauthorization } from './headless-oauth.mjs';

const [mode, ...rest] = process.argv.slice(2);
const client = new Client({ name: 'sdk1-example-client', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'sdk1' } }));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'example-model', role: 'assistant', content: { type: 'text', text: 'hello' } }));
const provider = headlessProvider(staticClientFromEnv());
let transport;
try {
  if (mode === '--http') transport = await connectWithOAuth(client, () => new StreamableHTTPClientTransport(new URL(rest[0]), { authProvider: provider }), provider, UnauthorizedError);
  else await client.connect((transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1) })));
} catch (e) {
  console.error(`connect failed: ${e.message}`);
  process.exit(1);
}
const step = async (what, fn) => {
  try {
    return await withReauthorization(fn, transport, provider, UnauthorizedError, false);
  } catch (e) {
    console.error(`${what}: ${e.message}`);
    return undefined;
  }
};
const tools = await step('tools/list', () => client.listTools());
if (tools?.tools?.[0]) await step('tools/call', () => client.callTool({ name: tools.tools[0].name, arguments: { text: 'hi' } }));
const prompts = await step('prompts/list', () => client.listPrompts());
if (prompts?.prompts?.[0]) await step('prompts/get', () => client.getPrompt({ name: prompts.prompts[0].name, arguments: {} }));
const resources = await step('resources/list', () => client.listResources());
if (resources?.resources?.[0]) await step('resources/read', () => client.readResource({ uri: resources.resources[0].uri }));
if (transport.sessionId) await step('terminate', () => transport.terminateSession());
await client.close();
