import fc from 'fast-check';
import { ALL_VERSIONS, check, holds, skip, untestable, violated } from './check.js';
import { errorCode, evidence, isObj, listAll, outcome, resultOf, expectErrorCode } from './exchange.js';
import { scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange } from '../runner/session-types.js';

interface Get {
  prompt: string;
  args: Record<string, string>;
  exchange: Exchange;
}

interface PromptsObs {
  declared: boolean;
  gets: Get[];
  missingArgs?: Get;
  unknown?: Exchange;
  completionDeclared: boolean;
  unknownCompletion?: Exchange;
}

export const UNKNOWN_PROMPT = 'mcpspec_no_such_prompt';

const argValue = fc.constantFrom('mcpspec', 'hello world', 'Ada', '42', 'formal', 'short');

export const promptsScenario = scenario<PromptsObs>({
  id: 'prompts',
  title: 'prompts/list, prompts/get with generated arguments, missing arguments, unknown prompts and completions',
  versions: ALL_VERSIONS,
  async run({ session, options }) {
    const obs: PromptsObs = { declared: 'prompts' in session.capabilities, gets: [], completionDeclared: 'completions' in session.capabilities };
    if (obs.declared) {
      const listed = await listAll((cursor) => session.request('prompts/list', cursor === undefined ? {} : { cursor }), 'prompts');
      let seed = options.seed;
      for (const p of listed.items.slice(0, 5)) {
        if (typeof p.name !== 'string') continue;
        const declaredArgs = (Array.isArray(p.arguments) ? p.arguments : []).filter(isObj);
        const args: Record<string, string> = {};
        for (const a of declaredArgs) {
          if (typeof a.name !== 'string') continue;
          // Required arguments always; optional ones half the time.
          if (a.required === true || (seed++ & 1) === 0) args[a.name] = fc.sample(argValue, { numRuns: 1, seed: seed++ })[0];
        }
        obs.gets.push({ prompt: p.name, args, exchange: await session.request('prompts/get', { name: p.name, arguments: args }) });
        const required = declaredArgs.filter((a) => a.required === true);
        if (!obs.missingArgs && required.length > 0) {
          obs.missingArgs = { prompt: p.name, args: {}, exchange: await session.request('prompts/get', { name: p.name, arguments: {} }) };
        }
      }
      obs.unknown = await session.request('prompts/get', { name: UNKNOWN_PROMPT, arguments: {} });
    }
    if (obs.completionDeclared) {
      obs.unknownCompletion = await session.request('completion/complete', { ref: { type: 'ref/prompt', name: UNKNOWN_PROMPT }, argument: { name: 'x', value: '' } });
    }
    return obs;
  },
  checks: [
    check<PromptsObs>({
      id: 'prompts.get',
      title: 'prompts/get with every required argument returns messages, or refuses the generated values with -32602',
      requirements: ['P26', 'PM-01'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.prompts26,
      judge({ declared, gets }) {
        if (!declared) return skip('the server does not declare prompts');
        if (gets.length === 0) return untestable('prompts/list returned no prompts');
        // Argument values are free strings in the schema; a server may refuse ours (-32602), but an
        // internal error or silence means it did not validate them first.
        const bad = gets.filter((g) => !Array.isArray(resultOf(g.exchange)?.messages) && errorCode(g.exchange) !== -32602);
        if (bad.length) return violated(`${bad.length} of ${gets.length} prompts/get calls failed; first: ${bad[0].prompt} with ${JSON.stringify(bad[0].args)} -> ${outcome(bad[0].exchange)}`, bad.slice(0, 3).map((g) => evidence(`prompts/get ${g.prompt}`, g.exchange, { expected: 'a GetPromptResult, or -32602 for argument values it refuses' })));
        const refused = gets.filter((g) => errorCode(g.exchange) === -32602).length;
        return holds(`${gets.length - refused} prompts rendered${refused ? `, ${refused} refused the generated values with -32602` : ''}`);
      },
    }),
    check<PromptsObs>({
      id: 'prompts.missing-args',
      title: 'prompts/get without a required argument gets -32602',
      requirements: ['PM-01'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.prompts26,
      judge({ declared, missingArgs }) {
        if (!declared) return skip('the server does not declare prompts');
        if (!missingArgs) return untestable('no listed prompt has a required argument');
        return expectErrorCode(missingArgs.exchange, -32602, `prompts/get ${missingArgs.prompt} without its required arguments`, `${missingArgs.prompt} without arguments got -32602`);
      },
    }),
    check<PromptsObs>({
      id: 'prompts.unknown',
      title: 'an unknown prompt gets -32602',
      requirements: ['PM-01'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.prompts26,
      judge({ declared, unknown }) {
        if (!declared || !unknown) return skip('the server does not declare prompts');
        return expectErrorCode(unknown, -32602, `prompts/get ${UNKNOWN_PROMPT}`);
      },
    }),
    check<PromptsObs>({
      id: 'completion.unknown-ref',
      title: 'completion/complete for an unknown prompt gets -32602',
      requirements: ['CP-01'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.completion26,
      judge({ completionDeclared, unknownCompletion }) {
        if (!completionDeclared || !unknownCompletion) return skip('the server does not declare completions');
        return expectErrorCode(unknownCompletion, -32602, `completion/complete for ${UNKNOWN_PROMPT}`);
      },
    }),
  ],
});
