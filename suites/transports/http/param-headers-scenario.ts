// Mcp-Param-* headers (SEP-2243): a callable tool that declares x-mcp-header is called over HTTP with
// the header as a conformant client sends it, Base64-encoded, disagreeing with the body, missing,
// and with a malformed Base64 value. Only tools mcpspec may call are used: a server that does not
// check the headers runs the call.

import fc from 'fast-check';
import { schemaArbitraries } from '../../../arbitraries/schema-arbitraries.js';
import { PARAM_HEADER_PREFIX, paramHeaderDeclarations, paramHeaderText, valueAtPath } from '../../../protocol/param-headers.js';
import { encodeHeaderValue } from '../../../protocol/http-headers.js';
import { MODERN } from '../../../protocol/versions.js';
import { gentleSchema } from '../../tools/gentle-arguments.js';
import { listAll } from '../../kit/exchange.js';
import type { Exchange } from '../../ports/session.js';
import { scenario } from '../../kit/scenario.js';
import { mayCall, schemaProblem, type Tool } from '../../tools/scenario.js';

export interface ParamHeadersObs {
  /** Why nothing was probed. */
  why?: string;
  tool?: string;
  /** The header probed, e.g. `Mcp-Param-Region`, and the argument's value as header text. */
  header?: string;
  value?: string;
  /** The same call with the header as a client sends it, Base64-encoded, disagreeing, left out, malformed. */
  correct?: Exchange;
  encoded?: Exchange;
  mismatched?: Exchange;
  missing?: Exchange;
  malformed?: Exchange;
}

const SAMPLES = 20;
const MAX_TOOLS = 3;
export const MALFORMED_BASE64 = '=?base64?%%%?=';

/** A header text the server must find different from `text` (integers and booleans compare by value). */
export function otherValue(text: string): string {
  if (text === 'true' || text === 'false') return text === 'true' ? 'false' : 'true';
  if (/^-?\d+$/.test(text)) return String(BigInt(text) + 1n);
  return text === 'mcpspec-other' ? 'mcpspec-other-2' : 'mcpspec-other';
}

export const paramHeadersScenario = scenario<ParamHeadersObs>({
  id: 'http.param-headers',
  title: 'a tool declaring x-mcp-header, called with its Mcp-Param-* header right, encoded, wrong, missing and malformed',
  versions: MODERN,
  transports: ['http'],
  async run({ session, options, deliberate }) {
    const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
    const declaring = listed.items.flatMap((t) => {
      const declarations = paramHeaderDeclarations(t.inputSchema).declarations ?? [];
      return typeof t.name === 'string' && declarations.length ? [{ tool: t as Tool, declarations }] : [];
    });
    if (declaring.length === 0) return { why: 'no listed tool declares x-mcp-header (correctly)' };
    const refused: string[] = [];
    for (const { tool, declarations } of declaring.slice(0, MAX_TOOLS)) {
      const why = mayCall(tool, options) ?? schemaProblem(tool.inputSchema);
      if (why) {
        refused.push(`${tool.name}: ${why}`);
        continue;
      }
      let samples: unknown[];
      try {
        samples = fc.sample(schemaArbitraries(gentleSchema(tool.inputSchema as Record<string, unknown>), { maxDepth: 2 }).valid, { seed: options.seed, numRuns: SAMPLES });
      } catch {
        refused.push(`${tool.name}: no valid arguments could be generated`);
        continue;
      }
      // The first valid arguments that give one of the declared headers a value.
      const found = samples
        .flatMap((args) => declarations.map((d) => ({ args, header: `${PARAM_HEADER_PREFIX}${d.header}`, value: paramHeaderText(valueAtPath(args, d.path)) })))
        .find((c): c is { args: unknown; header: string; value: string } => c.value !== undefined);
      if (!found) {
        refused.push(`${tool.name}: no generated arguments give its x-mcp-header properties a value`);
        continue;
      }
      const { args, header, value } = found;
      const call = (headers?: Record<string, string | undefined>) =>
        session.request('tools/call', { name: tool.name, arguments: args }, { headers, timeoutMs: options.toolTimeoutMs ?? options.timeoutMs });
      const [correct, encoded, mismatched, missing, malformed] = await Promise.all([
        call(),
        call({ [header]: `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=` }),
        deliberate(call({ [header]: encodeHeaderValue(otherValue(value)) })),
        deliberate(call({ [header]: undefined })),
        deliberate(call({ [header]: MALFORMED_BASE64 })),
      ]);
      return { tool: tool.name, header, value, correct, encoded, mismatched, missing, malformed };
    }
    return { why: `no tool declaring x-mcp-header could be called: ${refused.join('; ')}` };
  },
});

