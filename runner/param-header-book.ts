// What mcpspec knows of the target's x-mcp-header declarations (HM-10), learnt from every tools/list
// result of the run, so that every HTTP tools/call it sends carries the Mcp-Param-* headers a
// conformant client sends, whichever session listed the tools.

import { isObj } from '../protocol/jsonrpc.js';
import { paramHeaderDeclarations, paramHeadersFor, type ParamHeaderDeclaration } from '../protocol/param-headers.js';


/** Tool name -> its x-mcp-header declarations (what a fuzz repro keeps for its replay). */
export type ParamHeaderTable = Record<string, ParamHeaderDeclaration[]>;

export class ParamHeaderBook {
  private readonly tools = new Map<string, ParamHeaderDeclaration[]>();

  constructor(known: ParamHeaderTable = {}) {
    for (const [name, declarations] of Object.entries(known)) if (Array.isArray(declarations)) this.tools.set(name, declarations);
  }

  table(): ParamHeaderTable {
    return Object.fromEntries(this.tools);
  }

  /** Learn from a tools/list result. A tool whose declarations are invalid gets no headers (tools.x-mcp-header judges it). */
  learn(result: unknown): void {
    if (!isObj(result) || !Array.isArray(result.tools)) return;
    for (const tool of result.tools) {
      if (!isObj(tool) || typeof tool.name !== 'string') continue;
      const read = paramHeaderDeclarations(tool.inputSchema);
      if (read.problem === undefined && read.declarations.length) this.tools.set(tool.name, read.declarations);
      else this.tools.delete(tool.name);
    }
  }

  /** The Mcp-Param-* headers of a tools/call body; empty for anything else. */
  headersFor(body: unknown): Record<string, string> {
    if (!isObj(body) || body.method !== 'tools/call' || !isObj(body.params) || typeof body.params.name !== 'string') return {};
    const declarations = this.tools.get(body.params.name);
    return declarations ? paramHeadersFor(declarations, body.params.arguments) : {};
  }
}
