import fc from 'fast-check';
import { schemaArbitraries, type SchemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import type { NearValid } from '../../arbitraries/near-valid.js';
import { evaluateCases, shrinkFailure, type Counterexample, type Evaluated, type PropertyOptions } from '../../arbitraries/property.js';
import { paramHeaderDeclarations } from '../../protocol/param-headers.js';
import { schemaFromObject } from '../../protocol/schema-registry.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { needsCapableClient } from '../input-required/plain-answer.js';
import { errorCode, isObj, listAll, resultOf } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';
import { gentleSchema } from './gentle-arguments.js';
import { stragglerOptions, Stragglers } from './stragglers.js';

export type Tool = Record<string, unknown> & { name: string };

export interface ToolProperty<T> {
  tool: string;
  seed: number;
  runs: number;
  cases: Evaluated<T, Exchange>[];
  shrunk?: Counterexample<T, Exchange>;
}

export interface ToolsObs {
  tools: Tool[];
  listFailure?: Exchange;
  schemaProblems: { tool: string; which: string; problem: string }[];
  notCalled: { tool: string; why: string }[];
  valid: ToolProperty<unknown>[];
  nearValid: ToolProperty<NearValid>[];
  unknown?: Exchange;
  /** Calls cancelled as stragglers, per tool (not judged). */
  cancelled?: Record<string, number>;
}

export const UNKNOWN_TOOL = 'mcpspec_no_such_tool';
const MAX_TOOLS = 25;

/** Tools mcpspec may call: read-only or explicitly non-destructive, and closed-world, unless the user allows more. */
export function mayCall(tool: Tool, opts: { allowDestructive: boolean; allowOpenWorld: boolean; httpModern?: boolean }): string | undefined {
  const a = isObj(tool.annotations) ? tool.annotations : {};
  if (!opts.allowDestructive && !(a.readOnlyHint === true || a.destructiveHint === false)) return 'not marked read-only or non-destructive (pass --allow-destructive to call it)';
  if (!opts.allowOpenWorld && a.openWorldHint === true) return 'marked openWorldHint: it may reach outside this machine (pass --allow-open-world to call it)';
  // An HTTP client must drop such a tool from its view of tools/list (tools.x-mcp-header judges the server).
  const invalid = opts.httpModern ? paramHeaderDeclarations(tool.inputSchema).problem : undefined;
  if (invalid) return `its x-mcp-header declaration is invalid (${invalid}): an HTTP client must not use it (HM-10)`;
  return undefined;
}

/** 2025-11-25 tasks: a tool that must be called task-augmented (TA-03); a plain call is refused. */
function taskRequired(tool: Tool): boolean {
  return isObj(tool.execution) && tool.execution.taskSupport === 'required';
}

/** Compile a tool schema the way a client must (2020-12 unless it names another dialect). */
export function schemaProblem(schema: unknown): string | undefined {
  if (!isObj(schema)) return 'not a JSON object';
  if (schema.type !== 'object') return `type is ${JSON.stringify(schema.type)}, not "object"`;
  try {
    const doc = schemaFromObject(schema, 'tool schema');
    doc.validatorForNodes([doc.root]);
  } catch (e) {
    return `does not compile as JSON Schema: ${(e as Error).message.slice(0, 200)}`;
  }
  return undefined;
}

/**
 * A refusal for a client capability mcpspec did not declare (-32021, MT-05) or a request for input
 * (input_required): the plain call cannot be judged; the mrtr.* checks play those as a capable client.
 */
export const needsCapability = needsCapableClient;

/** No judgement can rest on a call that was never answered in time or hit the run's end. */
export const undecided = (ex: Exchange) => !ex.response && (ex.timedOut || !!ex.aborted);

export const validCallFails = (ex: Exchange) => !undecided(ex) && !needsCapability(ex) && !resultOf(ex);
export const invalidCallServed = (ex: Exchange) => {
  if (undecided(ex) || needsCapability(ex)) return false;
  const r = resultOf(ex);
  return r ? r.isError !== true : errorCode(ex) !== -32602;
};

function toolSeed(seed: number, name: string, salt: number): number {
  let h = seed ^ salt;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

async function callProperty<T>(
  ctx: ScenarioContext,
  tool: string,
  arb: fc.Arbitrary<T>,
  seed: number,
  args: (v: T) => unknown,
  deliberate: boolean,
  fails: (ex: Exchange) => boolean,
  stragglers: Stragglers | undefined,
): Promise<ToolProperty<T>> {
  const { session, options } = ctx;
  const timeoutMs = options.toolTimeoutMs ?? options.timeoutMs;
  const opts: PropertyOptions = { seed, numRuns: Math.max(2, Math.floor(options.runs / 10)), shrinkBudgetMs: 2 * timeoutMs, concurrency: 4 };
  const call = async (v: T, watch?: Stragglers) => {
    const w = watch?.start(tool, deliberate ? 'near-valid' : 'valid');
    const p = session.request('tools/call', { name: tool, arguments: args(v) }, { timeoutMs, signal: w?.signal });
    const ex = await (deliberate ? ctx.deliberate(p) : p);
    w?.finish(!undecided(ex) && !needsCapability(ex) && !deliberate, ex.elapsedMs);
    return ex;
  };
  const cases = await evaluateCases(arb, opts, (v) => call(v, stragglers));
  // Shrinking re-runs one case at a time: each gets the whole timeout.
  return { tool, seed, runs: opts.numRuns, cases, shrunk: await shrinkFailure(arb, opts, cases, (v) => call(v), fails) };
}

/**
 * Near-valid tool arguments: a non-object `arguments` breaks the request schema, not the tool's, so
 * only object-valued cases are kept. Drawn from the gentle schema where that still breaks the real
 * one (a time or a count beside the break stays small), else from the real schema; undefined when
 * the schema accepts every object.
 */
export function nearValidArguments(real: SchemaArbitraries, gentle: SchemaArbitraries, seed: number): fc.Arbitrary<NearValid<unknown>> | undefined {
  const breaksReal = (nv: NearValid<unknown>) => isObj(nv.value) && !real.validate(nv.value);
  // fc.filter would spin forever on an arbitrary whose values never pass: look at a few first.
  const some = (arb: fc.Arbitrary<NearValid<unknown>>, keep: (nv: NearValid<unknown>) => boolean) => {
    try {
      return fc.sample(arb, { seed, numRuns: 10 }).some(keep);
    } catch {
      return false; // the schema accepts every object: no near-valid arguments exist
    }
  };
  if (gentle !== real && some(gentle.nearValid, breaksReal)) return gentle.nearValid.filter(breaksReal);
  if (some(real.nearValid, (nv) => isObj(nv.value))) return real.nearValid.filter((nv) => isObj(nv.value));
  return undefined;
}

export const toolsScenario = scenario<ToolsObs>({
  id: 'tools',
  title: 'tools/list, schemas, calls with generated valid and near-valid arguments, an unknown tool',
  versions: ALL_VERSIONS,
  startEarly: true,
  async run(ctx) {
    const { session, options } = ctx;
    const obs: ToolsObs = { tools: [], schemaProblems: [], notCalled: [], valid: [], nearValid: [] };
    const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
    obs.tools = listed.items.filter((t): t is Tool => typeof t.name === 'string');
    obs.listFailure = listed.failed;
    const properties: Promise<void>[] = [];
    // With an explicit --tool-timeout every call is waited for; by default far stragglers are let go.
    const stragglers = options.toolTimeoutMs === undefined ? new Stragglers(stragglerOptions(options.timeoutMs)) : undefined;
    for (const tool of obs.tools.slice(0, MAX_TOOLS)) {
      // Let the calls made so far go out before building this tool's generators (a few ms each):
      // the target works on them meanwhile instead of waiting for every tool's.
      await new Promise((resolve) => setImmediate(resolve));
      for (const which of ['inputSchema', 'outputSchema'] as const) {
        if (which === 'outputSchema' && tool.outputSchema === undefined) continue;
        const problem = schemaProblem(tool[which]);
        if (problem) obs.schemaProblems.push({ tool: tool.name, which, problem });
      }
      const why = mayCall(tool, options) ?? (ctx.version === '2025-11-25' && taskRequired(tool) ? 'taskSupport "required": it runs only as a task (tasks.* checks call it)' : undefined);
      if (why) {
        obs.notCalled.push({ tool: tool.name, why });
        continue;
      }
      if (obs.schemaProblems.some((p) => p.tool === tool.name && p.which === 'inputSchema')) continue;
      const input = tool.inputSchema as Record<string, unknown>;
      const real = schemaArbitraries(input, { maxDepth: 3 });
      const gentleInput = gentleSchema(input);
      const gentle = gentleInput === input ? real : schemaArbitraries(gentleInput, { maxDepth: 3 });
      properties.push(callProperty(ctx, tool.name, gentle.valid, toolSeed(options.seed, tool.name, 1), (v) => v, false, validCallFails, stragglers).then((p) => void obs.valid.push(p)));
      const near = nearValidArguments(real, gentle, options.seed);
      if (!near) continue;
      properties.push(
        callProperty(ctx, tool.name, near, toolSeed(options.seed, tool.name, 2), (nv) => nv.value, true, invalidCallServed, stragglers)
          .then((p) => void obs.nearValid.push(p))
          .catch(() => undefined), // the arbitrary could not produce object-valued cases
      );
    }
    // Calls of all tools overlap (distinct ids), so a slow tool costs one timeout, not one per call.
    await Promise.all(properties);
    stragglers?.stop();
    obs.cancelled = Object.fromEntries(stragglers?.cancelled ?? []);
    obs.unknown = await session.request('tools/call', { name: UNKNOWN_TOOL, arguments: {} });
    return obs;
  },
});
