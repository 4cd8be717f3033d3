// A small client on @modelcontextprotocol/client 2.x (2026-07-28 with MRTR handlers), for mcpspec's
// real-client tests: `--http URL` or `--stdio <server command...>` (it declares elicitation and sampling, not roots). It negotiates (auto: discover,
// then fall back), then lists and uses a tool, a prompt and a resource, and exits 0 once connected.
// Over HTTP it authorizes when the server answers 401 (the SDK's OAuth, with a browserless provider).
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectWithOAuth, headlessProvider, staticClientFromEnv, withReauthorization } from './headless-oauth.mjs';

const [mode, ...rest] = process.argv.slice(2);
const client = new Client({ name: 'sdk2-example-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: 'auto' } });
client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'sdk2' } }));
client.setRequestHandler('sampling/createMessage', async () => ({ model: 'example-model', role: 'assistant', content: { type: 'text', text: 'hello' } }));
const provider = headlessProvider(staticClientFromEnv());
let transport;
try {
  if (mode === '--http') transport = await connectWithOAuth(client, () => new StreamableHTTPClientTransport(new URL(rest[0]), { authProvider: provider }), provider, UnauthorizedError, true);
  else await client.connect(new StdioClientTransport({ command: rest[0], args: rest.slice(1) }));
} catch (e) {
  console.error(`connect failed: ${e.message}`);
  process.exit(1);
}
const step = async (what, fn) => {
  try {
    return await withReauthorization(fn, transport, provider, UnauthorizedError, true);
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
await client.close();
