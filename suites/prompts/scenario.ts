import fc from 'fast-check';
import { evaluateCases } from '../../arbitraries/property.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { isObj, listAll } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';
import { templateVariables } from '../resources/uri-template.js';

export interface Get {
  prompt: string;
  args: Record<string, string>;
  exchange: Exchange;
}

export interface PromptsObs {
  gets: Get[];
  missingArgs?: Get;
  unknown: Exchange;
}

export const UNKNOWN_PROMPT = 'mcpspec_no_such_prompt';

const argValue = fc.constantFrom('mcpspec', 'hello world', 'Ada', '42', 'formal', 'short');

/** Arguments for a prompt: every required one, optional ones half the time. */
function promptArgs(declared: Record<string, unknown>[]): fc.Arbitrary<Record<string, string>> {
  const named = declared.filter((a): a is Record<string, unknown> & { name: string } => typeof a.name === 'string');
  const required = Object.fromEntries(named.filter((a) => a.required === true).map((a) => [a.name, argValue]));
  const optional = named.filter((a) => a.required !== true).map((a) => a.name);
  return fc.record({ ...required, ...Object.fromEntries(optional.map((n) => [n, argValue])) }, { requiredKeys: Object.keys(required) }) as fc.Arbitrary<Record<string, string>>;
}

export const promptsScenario = scenario<PromptsObs>({
  id: 'prompts',
  title: 'prompts/list, prompts/get with generated arguments, missing arguments, an unknown prompt',
  versions: ALL_VERSIONS,
  sharesSession: true,
  async run({ session, options }) {
    const listed = await listAll((cursor) => session.request('prompts/list', cursor === undefined ? {} : { cursor }), 'prompts');
    const prompts = listed.items.slice(0, 5).filter((p): p is Record<string, unknown> & { name: string } => typeof p.name === 'string');
    const obs: PromptsObs = { gets: [], unknown: undefined as unknown as Exchange };
    await Promise.all([
      ...prompts.map(async (p, i) => {
        const declared = (Array.isArray(p.arguments) ? p.arguments : []).filter(isObj);
        const [c] = await evaluateCases(promptArgs(declared), { seed: options.seed + i, numRuns: 1 }, (args) => session.request('prompts/get', { name: p.name, arguments: args }));
        obs.gets.push({ prompt: p.name, args: c.value, exchange: c.result });
      }),
      (async () => {
        const p = prompts.find((x) => Array.isArray(x.arguments) && x.arguments.some((a) => isObj(a) && a.required === true));
        if (p) obs.missingArgs = { prompt: p.name, args: {}, exchange: await session.request('prompts/get', { name: p.name, arguments: {} }) };
      })(),
      session.request('prompts/get', { name: UNKNOWN_PROMPT, arguments: {} }).then((ex) => void (obs.unknown = ex)),
    ]);
    obs.gets.sort((a, b) => prompts.findIndex((p) => p.name === a.prompt) - prompts.findIndex((p) => p.name === b.prompt));
    return obs;
  },
});

export interface CompletionAsk {
  /** What was completed: `prompt greeting, argument name` or `template x://{id}, variable id`. */
  what: string;
  exchange: Exchange;
}

export interface CompletionObs {
  unknownRef: Exchange;
  /** completion/complete for an argument of a listed prompt, or a variable of a listed template. */
  known: CompletionAsk[];
}

/** How many listed prompts (and templates) get a completion request for their first argument. */
const COMPLETED = 3;

/**
 * completion/complete for an unknown prompt, and for the first argument of a few listed prompts and
 * the first variable of a few listed resource templates (an empty current value).
 */
export const completionScenario = scenario<CompletionObs>({
  id: 'completion',
  title: 'completion/complete for an unknown prompt, and for arguments of listed prompts and variables of listed templates',
  versions: ALL_VERSIONS,
  sharesSession: true,
  async run({ session }) {
    const caps = session.capabilities;
    const complete = (ref: Record<string, unknown>, name: string) => session.request('completion/complete', { ref, argument: { name, value: '' } });
    const fromPrompts = async (): Promise<CompletionAsk[]> => {
      if (!('prompts' in caps)) return [];
      const listed = await listAll((cursor) => session.request('prompts/list', cursor === undefined ? {} : { cursor }), 'prompts');
      const withArgs = listed.items
        .map((p) => ({ name: p.name, arg: (Array.isArray(p.arguments) ? p.arguments : []).find((a) => isObj(a) && typeof a.name === 'string') as { name: string } | undefined }))
        .filter((p): p is { name: string; arg: { name: string } } => typeof p.name === 'string' && p.arg !== undefined)
        .slice(0, COMPLETED);
      return Promise.all(withArgs.map(async (p) => ({ what: `prompt ${p.name}, argument ${p.arg.name}`, exchange: await complete({ type: 'ref/prompt', name: p.name }, p.arg.name) })));
    };
    const fromTemplates = async (): Promise<CompletionAsk[]> => {
      if (!('resources' in caps)) return [];
      const listed = await listAll((cursor) => session.request('resources/templates/list', cursor === undefined ? {} : { cursor }), 'resourceTemplates');
      const withVars = listed.items
        .map((t) => ({ uri: t.uriTemplate, variable: typeof t.uriTemplate === 'string' ? templateVariables(t.uriTemplate)?.[0] : undefined }))
        .filter((t): t is { uri: string; variable: string } => typeof t.uri === 'string' && t.variable !== undefined)
        .slice(0, COMPLETED);
      return Promise.all(withVars.map(async (t) => ({ what: `template ${t.uri}, variable ${t.variable}`, exchange: await complete({ type: 'ref/resource', uri: t.uri }, t.variable) })));
    };
    const [unknownRef, prompts, templates] = await Promise.all([
      session.request('completion/complete', { ref: { type: 'ref/prompt', name: UNKNOWN_PROMPT }, argument: { name: 'x', value: '' } }),
      fromPrompts(),
      fromTemplates(),
    ]);
    return { unknownRef, known: [...prompts, ...templates] };
  },
});
