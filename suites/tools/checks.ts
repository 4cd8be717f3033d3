// tools.*: tools/list, schemas, and calls with generated arguments (T26, TE-01..TE-05).

import { schemaFromObject } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { paramHeaderDeclarations } from '../../protocol/param-headers.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import type { Evidence, GeneratedCase } from '../../results/verdict.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { errorCode, evidence, expectErrorCode, isObj, outcome, resultOf } from '../kit/exchange.js';
import { every, firstOffenders } from '../kit/judge.js';
import { invalidCallServed, needsCapability, toolsScenario, undecided, UNKNOWN_TOOL, validCallFails, type ToolProperty } from './scenario.js';
import type { NearValid } from '../../arbitraries/near-valid.js';
import type { Exchange } from '../ports/session.js';
import { ignoredKeywords } from './schema-dialect.js';

const TOOLS = { capabilities: ['tools'] };

function generated<T>(p: ToolProperty<T>, value: unknown): GeneratedCase {
  const g: GeneratedCase = { seed: p.seed, path: p.shrunk!.path, value, runs: p.runs, shrinks: p.shrunk!.shrinks };
  if (p.shrunk!.budgetReached) g.shrinkBudgetReached = true;
  return g;
}

export const toolsChecks = [
  check(toolsScenario, {
    id: 'tools.names',
    title: 'tool names are 1-128 characters of [A-Za-z0-9_.-] and unique',
    requirements: ['TE-05'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ tools }) {
      if (tools.length === 0) return untestable('tools/list returned no tools');
      const bad = tools.filter((t) => !/^[A-Za-z0-9_.-]{1,128}$/.test(t.name)).map((t) => t.name);
      const dup = tools.map((t) => t.name).filter((n, i, all) => all.indexOf(n) !== i);
      if (bad.length || dup.length) {
        return violated([bad.length && `bad names: ${bad.map((n) => JSON.stringify(n)).join(', ')}`, dup.length && `duplicates: ${dup.join(', ')}`].filter(Boolean).join('; '), [{ what: 'tools/list names', actual: [...bad, ...dup] }]);
      }
      return holds(`${tools.length} tool names`);
    },
  }),
  check(toolsScenario, {
    id: 'tools.input-schema',
    title: 'every inputSchema and outputSchema is a JSON Schema object of type "object"',
    requirements: ['TE-04'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ tools, schemaProblems }) {
      if (tools.length === 0) return untestable('tools/list returned no tools');
      if (schemaProblems.length) {
        return violated(schemaProblems.map((p) => `${p.tool}.${p.which}: ${p.problem}`).join('; '), schemaProblems.map((p) => ({ what: `${p.tool}.${p.which}`, actual: tools.find((t) => t.name === p.tool)?.[p.which], expected: p.problem })));
      }
      return holds(`${Math.min(tools.length, 25)} tools' schemas compile`);
    },
  }),
  check(toolsScenario, {
    id: 'tools.schema-dialect',
    // basic (2026-07-28), JSON Schema Usage: "Clients and servers MUST validate schemas according to their declared or default dialect";
    // SEP-2106 opens inputSchema to the whole 2020-12 vocabulary (the default dialect when no $schema is named).
    title: 'every keyword of a listed inputSchema and outputSchema takes effect under the schema\'s dialect (2020-12 when it names none): no 2020-12 keyword under an older $schema, no draft-07 keyword under 2020-12, no then/else without if',
    requirements: ['TE-04'],
    level: 'SHOULD',
    // 2025-11-25 made 2020-12 the default dialect (SEP-1613); 2025-06-18 names none.
    versions: ['2025-11-25', '2026-07-28'],
    requires: TOOLS,
    spec: SPEC.basic26,
    judge({ tools }) {
      return judgeSchemaDialect(tools);
    },
  }),
  check(toolsScenario, {
    id: 'tools.call-valid-args',
    title: 'a tool called with arguments valid for its inputSchema returns a result, not a JSON-RPC error',
    requirements: ['TE-01', 'TE-03'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ valid, notCalled, cancelled }) {
      const all = valid.flatMap((p) => p.cases);
      const gaveUp = Object.values(cancelled ?? {}).reduce((a, b) => a + b, 0);
      const needCap = all.filter((c) => needsCapability(c.result)).length;
      const decided = all.filter((c) => !undecided(c.result) && !needsCapability(c.result));
      if (decided.length === 0) {
        const why = all.length
          ? `none of ${all.length} calls could be judged (${all.length - needCap} unanswered within the tool timeout, ${needCap} refused for a client capability mcpspec did not declare, or asked for input: see mrtr.*)`
          : `no tool could be called${notCalled.length ? ` (${notCalled.map((n) => `${n.tool}: ${n.why}`).slice(0, 3).join('; ')})` : ''}`;
        return untestable(why);
      }
      const failing = valid.filter((p) => p.shrunk);
      if (failing.length) {
        const bad = decided.filter((c) => validCallFails(c.result));
        const p = failing[0];
        return violated(
          `${bad.length} of ${decided.length} calls with valid arguments got no result; smallest: ${p.tool} with ${JSON.stringify(p.shrunk!.value)} -> ${outcome(p.shrunk!.result)}`,
          firstOffenders(failing).map((q) => evidence(`tools/call ${q.tool} (shrunk)`, q.shrunk!.result, { expected: 'a CallToolResult' })),
          generated(p, p.shrunk!.value),
        );
      }
      const unanswered = all.filter((c) => c.result.timedOut && !c.result.response).length;
      const notes = [
        unanswered > 0 && `${unanswered} unanswered within the tool timeout, not judged`,
        gaveUp > 0 && `${gaveUp} calls still running long after the typical one were cancelled and not judged (${Object.entries(cancelled ?? {}).map(([t, n]) => `${t}: ${n}`).join(', ')}; pass --tool-timeout to wait for each)`,
        needCap > 0 && `${needCap} refused with -32021 for a capability mcpspec did not declare or answered input_required (judged by mrtr.*)`,
      ].filter(Boolean);
      return holds(`${decided.length} calls on ${new Set(valid.filter((p) => p.cases.some((c) => decided.includes(c))).map((p) => p.tool)).size} tools returned results${notes.length ? ` (${notes.join('; ')})` : ''}`);
    },
  }),
  check(toolsScenario, {
    id: 'tools.structured-output',
    title: 'a tool with an outputSchema returns structuredContent valid against it',
    requirements: ['TE-03'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ tools, valid }) {
      const withSchema = new Map(tools.filter((t) => isObj(t.outputSchema)).map((t) => [t.name, t.outputSchema as Record<string, unknown>]));
      const calls = valid.filter((p) => withSchema.has(p.tool)).flatMap((p) => p.cases.map((c) => ({ tool: p.tool, exchange: c.result }))).filter((c) => resultOf(c.exchange) && resultOf(c.exchange)!.isError !== true && !needsCapability(c.exchange));
      if (calls.length === 0) return untestable(withSchema.size ? 'no successful call of a tool with an outputSchema' : 'no tool declares an outputSchema');
      const bad: Evidence[] = [];
      let judged = 0;
      for (const c of calls) {
        const schema = withSchema.get(c.tool)!;
        const r = resultOf(c.exchange)!;
        let validate;
        try {
          const doc = schemaFromObject(schema, 'outputSchema');
          validate = doc.validatorForNodes([doc.root]);
        } catch {
          continue; // an uncompilable outputSchema is tools.input-schema's finding, not judged here
        }
        judged++;
        if (!('structuredContent' in r)) {
          bad.push(evidence(`${c.tool}: no structuredContent`, c.exchange, { expected: 'structuredContent' }));
          continue;
        }
        if (!validate(r.structuredContent)) {
          bad.push(evidence(`${c.tool}: structuredContent does not match outputSchema`, c.exchange, { pointer: `/result/structuredContent${validate.errors?.[0]?.instancePath ?? ''}`, expected: validate.errors?.[0]?.message }));
        }
      }
      if (bad.length) return violated(`${bad.length} of ${judged} structured results break their outputSchema`, firstOffenders(bad));
      if (judged === 0) return untestable('every tool with an outputSchema has one that does not compile');
      return holds(`${judged} structured results match their outputSchema`);
    },
  }),
  check(toolsScenario, {
    id: 'tools.invalid-args-rejected',
    title: 'arguments that break the inputSchema get isError: true or -32602, never a normal result',
    requirements: ['TE-01'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ nearValid }) {
      const decided = nearValid.flatMap((p) => p.cases).filter((c) => !undecided(c.result) && !needsCapability(c.result));
      if (decided.length === 0) return untestable('no callable tool has an inputSchema that near-valid arguments can break');
      const failing = nearValid.filter((p) => p.shrunk);
      if (failing.length) {
        const bad = decided.filter((c) => invalidCallServed(c.result));
        const p = failing[0];
        const nv = p.shrunk!.value as NearValid;
        return violated(
          `${bad.length} of ${decided.length} invalid argument sets were not refused; smallest: ${p.tool} with ${nv.label.mutation} at ${nv.label.path || '/'} -> ${outcome(p.shrunk!.result)}`,
          firstOffenders(failing).map((q) => evidence(`tools/call ${q.tool}: ${(q.shrunk!.value as NearValid).label.mutation} (shrunk)`, q.shrunk!.result, { pointer: `/params/arguments${(q.shrunk!.value as NearValid).label.path}`, expected: 'isError: true or error -32602' })),
          generated(p, nv.value),
        );
      }
      return holds(`${decided.length} invalid argument sets were refused`);
    },
  }),
  check(toolsScenario, {
    id: 'tools.invalid-args-as-result',
    title: 'arguments that break the inputSchema are a tool execution error (a result with isError: true), not a -32602 error',
    // SEP-1303 (2025-11-25) moved argument validation failures from protocol errors to tool execution
    // errors, so the model sees them and can correct its call. The request itself is sound (arguments is an
    // object), so a -32602 here is the pre-2025-11-25 behaviour.
    requirements: ['TE-01'],
    level: 'SHOULD',
    versions: ['2025-11-25', '2026-07-28'],
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ nearValid }) {
      const decided = nearValid.flatMap((p) => p.cases.map((c) => ({ tool: p.tool, c }))).filter(({ c }) => !undecided(c.result) && !needsCapability(c.result) && isObj(c.value.value));
      return every(decided.filter(({ c }) => resultOf(c.result)?.isError === true || errorCode(c.result) === -32602), {
        none: 'no invalid argument set was refused, so there is no refusal to judge',
        offends: ({ c }) => errorCode(c.result) === -32602,
        violated: (asProtocol, refused) => `${asProtocol.length} of ${refused.length} refused argument sets were answered as JSON-RPC error -32602, not as a result with isError: true`,
        evidence: ({ tool, c }) => evidence(`tools/call ${tool}: ${c.value.label.mutation} at ${c.value.label.path || '/'}`, c.result, { pointer: '/error/code', expected: 'a result with isError: true', actual: errorCode(c.result) }),
        holds: (refused) => `${refused.length} refused argument sets were tool execution errors`,
      });
    },
  }),
  check(toolsScenario, {
    id: 'tools.unknown-tool',
    // The spec lists an unknown tool among protocol errors (JSON-RPC errors, -32602 in its example)
    // without a MUST keyword, so this is judged as a SHOULD.
    title: 'calling an unknown tool is a protocol error: JSON-RPC error -32602, not a tool result',
    requirements: ['TE-01'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: TOOLS,
    spec: SPEC.tools26,
    judge({ unknown }) {
      if (!unknown || undecided(unknown)) return untestable('tools/call for an unknown tool was not answered in time');
      return expectErrorCode(unknown, -32602, `tools/call ${UNKNOWN_TOOL}`);
    },
  }),
  oracle({
    id: 'tools.x-mcp-header',
    title: 'every x-mcp-header annotation in a listed inputSchema is a unique header token on a string, integer or boolean property reached through properties keys',
    requirements: ['HM-10'],
    level: 'MUST',
    versions: MODERN,
    requires: TOOLS,
    spec: SPEC.http26,
    judge({ exchanges }) {
      const annotated = new Map<string, { problem?: string; ex: Exchange }>();
      for (const ex of exchanges) {
        const tools = ex.method === 'tools/list' ? resultOf(ex)?.tools : undefined;
        if (!Array.isArray(tools)) continue;
        for (const tool of tools) {
          if (!isObj(tool) || typeof tool.name !== 'string') continue;
          const read = paramHeaderDeclarations(tool.inputSchema);
          if (read.declarations?.length === 0) continue; // declares nothing
          if (!annotated.has(tool.name) || read.problem !== undefined) annotated.set(tool.name, { problem: read.problem, ex });
        }
      }
      return every([...annotated], {
        none: 'no listed tool declares x-mcp-header',
        offends: ([, a]) => a.problem !== undefined,
        violated: (bad) => `${bad.length} of ${annotated.size} tools declaring x-mcp-header declare it wrongly (HTTP clients must drop them); first: ${bad[0][0]}: ${bad[0][1].problem}`,
        evidence: ([name, a]) => evidence(`tools/list: ${name}`, a.ex, { actual: a.problem, expected: 'valid x-mcp-header declarations' }),
        holds: () => `${annotated.size} tools declare x-mcp-header correctly: ${[...annotated.keys()].slice(0, 5).join(', ')}`,
      });
    },
  }),
];

/** tools.schema-dialect over the listed tools (pure). */
export function judgeSchemaDialect(tools: readonly Record<string, unknown>[]) {
  if (tools.length === 0) return untestable('tools/list returned no tools');
  const found = tools.flatMap((t) => (['inputSchema', 'outputSchema'] as const).flatMap((which) => ignoredKeywords(t[which]).map((k) => ({ tool: String(t.name), which, ...k }))));
  if (found.length) {
    return violated(
      `${found.length} keyword(s) in listed tool schemas that the schema's dialect ignores (a validator of that dialect enforces nothing they say); first: ${found[0].tool}.${found[0].which}${found[0].pointer}: ${found[0].why}`,
      firstOffenders(found.map((f) => ({ what: `${f.tool}.${f.which}${f.pointer}`, actual: f.keyword, expected: f.why }))),
    );
  }
  const schemas = tools.reduce((n, t) => n + (t.inputSchema !== undefined ? 1 : 0) + (t.outputSchema !== undefined ? 1 : 0), 0);
  return holds(`${schemas} schemas of ${tools.length} tools: every keyword belongs to the schema's dialect`);
}
