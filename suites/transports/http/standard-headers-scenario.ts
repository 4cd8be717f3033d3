// The standard request headers of 2026-07-28 (SEP-2243; HM-08, HM-09), sent wrong on purpose: a
// harmless request (tools/list, else prompts/list or resources/list, by what the server declares) and one that needs Mcp-Name (resources/read of a listed resource,
// prompts/get of a prompt without required arguments, or tools/call of a callable tool without
// required arguments) go out with the header missing, with a value of another case or another
// method or name, with spaces around the value (HTTP drops them: the value is the same), and with
// the header names in other cases (names compare case-insensitively). The transport sends header
// names as given and values untrimmed (node:http), so the server sees what is written here.

import { encodeHeaderValue } from '../../../protocol/http-headers.js';
import { MODERN } from '../../../protocol/versions.js';
import { isObj, listAll } from '../../kit/exchange.js';
import { scenario } from '../../kit/scenario.js';
import type { Exchange } from '../../ports/session.js';
import { mayCall, type Tool } from '../../tools/scenario.js';

/** A request whose Mcp-Name the server must check: its method, params and the value Mcp-Name mirrors. */
export interface NamedRequest {
  method: 'resources/read' | 'prompts/get' | 'tools/call';
  params: Record<string, unknown>;
  name: string;
}

export interface StandardHeadersObs {
  /** The harmless list request the Mcp-Method probes are sent on. */
  listMethod: ListMethod;
  /** It, as mcpspec always sends it: what the probes are compared with. */
  plain: Exchange;
  /** Mcp-Method left out. */
  noMethod: Exchange;
  /** Mcp-Method in upper case (`TOOLS/LIST`). */
  methodCase: Exchange;
  /** Mcp-Method naming another list method. */
  methodMismatch: Exchange;
  /** Mcp-Method with a space before and a tab after the value (optional whitespace). */
  methodOws: Exchange;
  /** `MCP-METHOD` and `mcp-protocol-version` as header names. */
  namesCased: Exchange;
  /** Why no request that needs Mcp-Name was probed. */
  whyNoNamed?: string;
  named?: NamedRequest;
  namedPlain?: Exchange;
  /** Mcp-Name left out. */
  noName?: Exchange;
  /** Mcp-Name naming something else. */
  nameMismatch?: Exchange;
  /** Mcp-Name with spaces around the value. */
  nameOws?: Exchange;
  /** `mcp-method` and `MCP-NAME` as header names. */
  namedCased?: Exchange;
}

export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list';

/** The wrong values sent: the method in upper case, another list method, another name. */
export const casedMethod = (m: ListMethod) => m.toUpperCase();
export const otherMethod = (m: ListMethod): ListMethod => (m === 'prompts/list' ? 'tools/list' : 'prompts/list');
export const OTHER_NAME = 'mcpspec-no-such-name';

/** The list request of a feature the server declares (tools/list when it declares none of them). */
function listMethodFor(caps: Record<string, unknown>): ListMethod {
  return 'tools' in caps ? 'tools/list' : 'prompts' in caps ? 'prompts/list' : 'resources' in caps ? 'resources/list' : 'tools/list';
}

const hasRequired = (schema: unknown) => isObj(schema) && Array.isArray(schema.required) && schema.required.length > 0;

/** The first harmless request that needs Mcp-Name, from what the server lists. */
async function namedRequest(ctx: Parameters<typeof standardHeadersScenario.run>[0]): Promise<NamedRequest | string> {
  const { session, options } = ctx;
  const caps = session.capabilities;
  const tried: string[] = [];
  if ('resources' in caps) {
    const listed = await listAll((cursor) => session.request('resources/list', cursor === undefined ? {} : { cursor }), 'resources');
    const r = listed.items.find((x) => typeof x.uri === 'string');
    if (r) return { method: 'resources/read', params: { uri: r.uri }, name: r.uri as string };
    tried.push('no resource listed');
  }
  if ('prompts' in caps) {
    const listed = await listAll((cursor) => session.request('prompts/list', cursor === undefined ? {} : { cursor }), 'prompts');
    const p = listed.items.find((x) => typeof x.name === 'string' && !(Array.isArray(x.arguments) && x.arguments.some((a) => isObj(a) && a.required === true)));
    if (p) return { method: 'prompts/get', params: { name: p.name }, name: p.name as string };
    tried.push('no prompt without required arguments listed');
  }
  if ('tools' in caps) {
    const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
    const t = listed.items.find((x) => typeof x.name === 'string' && mayCall(x as Tool, { ...options, httpModern: true }) === undefined && !hasRequired(x.inputSchema));
    if (t) return { method: 'tools/call', params: { name: t.name, arguments: {} }, name: t.name as string };
    tried.push('no tool mcpspec may call without arguments listed');
  }
  return tried.length ? tried.join('; ') : 'the server declares no resources, prompts or tools';
}

export const standardHeadersScenario = scenario<StandardHeadersObs>({
  id: 'http-standard-headers',
  title: 'Mcp-Method and Mcp-Name sent missing, in another case, naming something else, with spaces around the value, and under header names in other cases',
  versions: MODERN,
  transports: ['http'],
  async run(ctx) {
    const { session, deliberate, version, options } = ctx;
    const listMethod = listMethodFor(session.capabilities);
    const list = (headers: Record<string, string | undefined>) => session.request(listMethod, {}, { headers });
    const [plain, noMethod, methodCase, methodMismatch, methodOws, namesCased] = await Promise.all([
      list({}),
      deliberate(list({ 'Mcp-Method': undefined })),
      deliberate(list({ 'Mcp-Method': casedMethod(listMethod) })),
      deliberate(list({ 'Mcp-Method': otherMethod(listMethod) })),
      list({ 'Mcp-Method': ` ${listMethod}\t` }),
      list({ 'Mcp-Method': undefined, 'MCP-METHOD': listMethod, 'MCP-Protocol-Version': undefined, 'mcp-protocol-version': version }),
    ]);
    const obs: StandardHeadersObs = { listMethod, plain, noMethod, methodCase, methodMismatch, methodOws, namesCased };
    const named = await namedRequest(ctx);
    if (typeof named === 'string') return { ...obs, whyNoNamed: named };
    const timeoutMs = named.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
    const send = (headers: Record<string, string | undefined>) => session.request(named.method, named.params, { headers, timeoutMs });
    // The named value as the transport sends it (Base64 where it is not plain) stays as it is; only the probes change it.
    const [namedPlain, noName, nameMismatch, nameOws, namedCased] = await Promise.all([
      send({}),
      deliberate(send({ 'Mcp-Name': undefined })),
      deliberate(send({ 'Mcp-Name': OTHER_NAME })),
      send({ 'Mcp-Name': ` ${encodeHeaderValue(named.name)} ` }),
      send({ 'Mcp-Method': undefined, 'mcp-method': named.method, 'Mcp-Name': undefined, 'MCP-NAME': encodeHeaderValue(named.name) }),
    ]);
    return { ...obs, named, namedPlain, noName, nameMismatch, nameOws, namedCased };
  },
});
