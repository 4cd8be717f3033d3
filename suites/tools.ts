import fc from 'fast-check';
import { schemaArbitraries } from '../arbitraries/schema-arbitraries.js';
import { schemaFromObject } from '../arbitraries/schema-registry.js';
import type { NearValid } from '../arbitraries/near-valid.js';
import { ALL_VERSIONS, check, holds, skip, untestable, violated, type Evidence } from './check.js';
import { errorCode, evidence, isObj, listAll, outcome, resultOf, expectErrorCode } from './exchange.js';
import { inPool, scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange } from '../runner/session-types.js';

type Tool = Record<string, unknown> & { name: string };

interface Call {
  tool: string;
  args: unknown;
  exchange: Exchange;
  nearValid?: NearValid;
}

interface ToolsObs {
  declared: boolean;
  tools: Tool[];
  listFailure?: Exchange;
  schemaProblems: { tool: string; which: string; problem: string }[];
  notCalled: { tool: string; why: string }[];
  validCalls: Call[];
  invalidCalls: Call[];
  unknown?: Exchange;
}

export const UNKNOWN_TOOL = 'mcpspec_no_such_tool';

/** Tools mcpspec may call: read-only or explicitly non-destructive, unless the user allows more. */
export function mayCall(tool: Tool, allowDestructive: boolean): string | undefined {
  if (allowDestructive) return undefined;
  const a = isObj(tool.annotations) ? tool.annotations : {};
  if (a.readOnlyHint === true || a.destructiveHint === false) return undefined;
  return 'not marked read-only or non-destructive (pass --allow-destructive to call it)';
}

/** Compile a tool schema the way a client must (2020-12 unless it names another dialect). */
function schemaProblem(schema: unknown): string | undefined {
  if (!isObj(schema)) return 'not a JSON object';
  if (schema.type !== 'object') return `type is ${JSON.stringify(schema.type)}, not "object"`;
  try {
    schemaFromObject(schema, 'tool schema').validatorForNodes([schema]);
  } catch (e) {
    return `does not compile as JSON Schema: ${(e as Error).message.slice(0, 200)}`;
  }
  return undefined;
}

export const toolsScenario = scenario<ToolsObs>({
  id: 'tools',
  title: 'tools/list, schemas, calls with generated valid and near-valid arguments, an unknown tool',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const { session, options } = ctx;
    const obs: ToolsObs = { declared: 'tools' in session.capabilities, tools: [], schemaProblems: [], notCalled: [], validCalls: [], invalidCalls: [] };
    if (!obs.declared) return obs;
    const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
    obs.tools = listed.items.filter((t): t is Tool => typeof t.name === 'string');
    obs.listFailure = listed.failed;
    const callTimeout = Math.min(options.timeoutMs, options.toolTimeoutMs ?? 1500);
    const perTool = Math.max(2, Math.floor(options.runs / 5));
    const calls: (() => Promise<void>)[] = [];
    for (const tool of obs.tools.slice(0, 25)) {
      for (const which of ['inputSchema', 'outputSchema'] as const) {
        if (which === 'outputSchema' && tool.outputSchema === undefined) continue;
        const problem = schemaProblem(tool[which]);
        if (problem) obs.schemaProblems.push({ tool: tool.name, which, problem });
      }
      const why = mayCall(tool, options.allowDestructive);
      if (why) {
        obs.notCalled.push({ tool: tool.name, why });
        continue;
      }
      if (obs.schemaProblems.some((p) => p.tool === tool.name && p.which === 'inputSchema')) continue;
      const arbs = schemaArbitraries(tool.inputSchema as Record<string, unknown>, { maxDepth: 3 });
      for (const args of fc.sample(arbs.valid, { numRuns: perTool, seed: options.seed })) {
        calls.push(async () => {
          obs.validCalls.push({ tool: tool.name, args, exchange: await session.request('tools/call', { name: tool.name, arguments: args }, { timeoutMs: callTimeout }) });
        });
      }
      let near: NearValid[] = [];
      try {
        near = fc.sample(arbs.nearValid, { numRuns: perTool, seed: options.seed + 1 });
      } catch {
        near = []; // the schema accepts every object: no near-valid arguments exist
      }
      for (const nv of near) {
        if (!isObj(nv.value)) continue; // a non-object `arguments` breaks the request schema, not the tool's
        calls.push(async () => {
          const exchange = await ctx.deliberate(session.request('tools/call', { name: tool.name, arguments: nv.value }, { timeoutMs: callTimeout }));
          obs.invalidCalls.push({ tool: tool.name, args: nv.value, exchange, nearValid: nv });
        });
      }
    }
    // Calls overlap (distinct ids), so a slow tool costs one timeout, not one per call.
    await inPool(calls, 8);
    obs.unknown = await session.request('tools/call', { name: UNKNOWN_TOOL, arguments: {} });
    return obs;
  },
  checks: [
    check<ToolsObs>({
      id: 'tools.names',
      title: 'tool names are 1-128 characters of [A-Za-z0-9_.-] and unique',
      requirements: ['TE-05'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.tools26,
      judge({ declared, tools }) {
        if (!declared) return skip('the server does not declare tools');
        if (tools.length === 0) return untestable('tools/list returned no tools');
        const bad = tools.filter((t) => !/^[A-Za-z0-9_.-]{1,128}$/.test(t.name)).map((t) => t.name);
        const dup = tools.map((t) => t.name).filter((n, i, all) => all.indexOf(n) !== i);
        if (bad.length || dup.length) {
          return violated([bad.length && `bad names: ${bad.map((n) => JSON.stringify(n)).join(', ')}`, dup.length && `duplicates: ${dup.join(', ')}`].filter(Boolean).join('; '), [{ what: 'tools/list names', actual: [...bad, ...dup] }]);
        }
        return holds(`${tools.length} tool names`);
      },
    }),
    check<ToolsObs>({
      id: 'tools.input-schema',
      title: 'every inputSchema and outputSchema is a JSON Schema object of type "object"',
      requirements: ['TE-04'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.tools26,
      judge({ declared, tools, schemaProblems }) {
        if (!declared) return skip('the server does not declare tools');
        if (tools.length === 0) return untestable('tools/list returned no tools');
        if (schemaProblems.length) {
          return violated(schemaProblems.map((p) => `${p.tool}.${p.which}: ${p.problem}`).join('; '), schemaProblems.map((p) => ({ what: `${p.tool}.${p.which}`, actual: tools.find((t) => t.name === p.tool)?.[p.which], expected: p.problem })));
        }
        return holds(`${Math.min(tools.length, 25)} tools' schemas compile`);
      },
    }),
    check<ToolsObs>({
      id: 'tools.call-valid-args',
      title: 'a tool called with arguments valid for its inputSchema returns a result, not a JSON-RPC error',
      requirements: ['TE-01', 'TE-03'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.tools26,
      judge({ declared, validCalls, notCalled }) {
        if (!declared) return skip('the server does not declare tools');
        const decided = validCalls.filter((c) => !(c.exchange.timedOut && !c.exchange.response));
        if (decided.length === 0) {
          return untestable(validCalls.length ? `all ${validCalls.length} calls timed out` : `no tool could be called${notCalled.length ? ` (${notCalled.length} not marked read-only; see --allow-destructive)` : ''}`);
        }
        const bad = decided.filter((c) => !resultOf(c.exchange));
        if (bad.length) {
          return violated(`${bad.length} of ${decided.length} calls with valid arguments got no result; first: ${bad[0].tool} -> ${outcome(bad[0].exchange)}`, bad.slice(0, 3).map((c) => evidence(`tools/call ${c.tool}`, c.exchange, { expected: 'a CallToolResult' })));
        }
        const timedOut = validCalls.length - decided.length;
        return holds(`${decided.length} calls on ${new Set(decided.map((c) => c.tool)).size} tools returned results${timedOut ? ` (${timedOut} timed out, not judged)` : ''}`);
      },
    }),
    check<ToolsObs>({
      id: 'tools.structured-output',
      title: 'a tool with an outputSchema returns structuredContent valid against it',
      requirements: ['TE-03'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.tools26,
      judge({ declared, tools, validCalls }) {
        if (!declared) return skip('the server does not declare tools');
        const withSchema = new Map(tools.filter((t) => isObj(t.outputSchema)).map((t) => [t.name, t.outputSchema as Record<string, unknown>]));
        const calls = validCalls.filter((c) => withSchema.has(c.tool) && resultOf(c.exchange) && resultOf(c.exchange)!.isError !== true);
        if (calls.length === 0) return untestable(withSchema.size ? 'no successful call of a tool with an outputSchema' : 'no tool declares an outputSchema');
        const bad: Evidence[] = [];
        let judged = 0;
        for (const c of calls) {
          const schema = withSchema.get(c.tool)!;
          const r = resultOf(c.exchange)!;
          judged++;
          if (!('structuredContent' in r)) {
            bad.push(evidence(`${c.tool}: no structuredContent`, c.exchange, { expected: 'structuredContent' }));
            continue;
          }
          let validate;
          try {
            validate = schemaFromObject(schema, 'outputSchema').validatorForNodes([schema]);
          } catch {
            judged--; // an uncompilable outputSchema is tools.input-schema's finding, not judged here
            continue;
          }
          if (!validate(r.structuredContent)) {
            bad.push(evidence(`${c.tool}: structuredContent does not match outputSchema`, c.exchange, { pointer: `/result/structuredContent${validate.errors?.[0]?.instancePath ?? ''}`, expected: validate.errors?.[0]?.message }));
          }
        }
        if (bad.length) return violated(`${bad.length} of ${judged} structured results break their outputSchema`, bad.slice(0, 3));
        if (judged === 0) return untestable('every tool with an outputSchema has one that does not compile');
        return holds(`${judged} structured results match their outputSchema`);
      },
    }),
    check<ToolsObs>({
      id: 'tools.invalid-args-rejected',
      title: 'arguments that break the inputSchema get isError: true or -32602, never a normal result',
      requirements: ['TE-01'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.tools26,
      judge({ declared, invalidCalls }) {
        if (!declared) return skip('the server does not declare tools');
        const decided = invalidCalls.filter((c) => !(c.exchange.timedOut && !c.exchange.response));
        if (decided.length === 0) return untestable('no callable tool has an inputSchema that near-valid arguments can break');
        const accepted = decided.filter((c) => resultOf(c.exchange) && resultOf(c.exchange)!.isError !== true);
        const wrongError = decided.filter((c) => !resultOf(c.exchange) && errorCode(c.exchange) !== -32602);
        const bad = [...accepted, ...wrongError];
        if (bad.length) {
          const first = bad[0];
          return violated(
            `${bad.length} of ${decided.length} invalid argument sets were not refused; first: ${first.tool} with ${first.nearValid!.label.mutation} at ${first.nearValid!.label.path || '/'} -> ${outcome(first.exchange)}`,
            bad.slice(0, 3).map((c) => evidence(`tools/call ${c.tool}: ${c.nearValid!.label.mutation}`, c.exchange, { pointer: `/params/arguments${c.nearValid!.label.path}`, expected: 'isError: true or error -32602' })),
          );
        }
        return holds(`${decided.length} invalid argument sets were refused`);
      },
    }),
    check<ToolsObs>({
      id: 'tools.unknown-tool',
      // The spec lists an unknown tool among protocol errors (JSON-RPC errors, -32602 in its example)
      // without a MUST keyword, so this is judged as a SHOULD.
      title: 'calling an unknown tool is a protocol error: JSON-RPC error -32602, not a tool result',
      requirements: ['TE-01'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.tools26,
      judge({ declared, unknown }) {
        if (!declared || !unknown) return skip('the server does not declare tools');
        return expectErrorCode(unknown, -32602, `tools/call ${UNKNOWN_TOOL}`);
      },
    }),
  ],
});
