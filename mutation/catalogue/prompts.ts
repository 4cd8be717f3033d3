// Mutations of the prompts area (requirements digest §12 PM-01): prompts/get for unknown prompts and
// missing arguments, and the shape of its messages (role values, one content block per message; the
// schema is the rule there, cited as JR-04 like the wire.schema check does).

import { isObj, list, onResult } from '../edits.js';
import { mutation, SERVER_ANY as server, type Mutation, type MutationContext, type MutationHooks } from '../mutation.js';

type Obj = Record<string, unknown>;
type ToClient = NonNullable<MutationHooks['toClient']>;

/** Prompts listed so far: name -> the names of its required arguments. */
function prompts(ctx: MutationContext): Map<string, string[]> {
  if (!(ctx.state.prompts instanceof Map)) ctx.state.prompts = new Map<string, string[]>();
  return ctx.state.prompts as Map<string, string[]>;
}

function learning(hook: ToClient): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(m, ctx) {
      if (isObj(m.result) && ctx.request?.method === 'prompts/list') {
        for (const p of list(m.result, 'prompts', 0) ?? []) {
          if (!isObj(p) || typeof p.name !== 'string') continue;
          const required = (Array.isArray(p.arguments) ? p.arguments : []).filter((a): a is Obj => isObj(a) && a.required === true && typeof a.name === 'string').map((a) => a.name as string);
          prompts(ctx).set(p.name, required);
        }
      }
      return hook(m, ctx);
    },
  };
}

function promptName(ctx: MutationContext): string | undefined {
  const name = ctx.request?.params.name;
  return ctx.request?.method === 'prompts/get' && typeof name === 'string' ? name : undefined;
}

/** A -32602 to prompts/get naming a prompt no prompts/list answer listed. */
function unknownPrompt(m: Obj, ctx: MutationContext): boolean {
  const name = promptName(ctx);
  return name !== undefined && isObj(m.error) && m.error.code === -32602 && prompts(ctx).size > 0 && !prompts(ctx).has(name);
}

/** A -32602 to prompts/get of a listed prompt whose request lacks a required argument. */
function missingArgument(m: Obj, ctx: MutationContext): string | undefined {
  const name = promptName(ctx);
  const required = name === undefined ? undefined : prompts(ctx).get(name);
  if (!required || !isObj(m.error) || m.error.code !== -32602) return undefined;
  const given = isObj(ctx.request?.params.arguments) ? (ctx.request?.params.arguments as Obj) : {};
  return required.find((a) => !(a in given));
}

function result(ctx: MutationContext, body: Obj): Obj {
  return ctx.era === 'modern' ? { resultType: 'complete', ...body } : body;
}

export const PROMPTS_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'prompts.unknown-empty-messages',
    requirements: ['PM-01'],
    description: 'prompts/get of a prompt that was never listed gets a result with no messages instead of -32602',
    ...learning((m, ctx) => {
      if (!unknownPrompt(m, ctx)) return undefined;
      delete m.error;
      m.result = result(ctx, { messages: [] });
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'prompts.unknown-method-not-found',
    requirements: ['PM-01'],
    description: 'prompts/get of a prompt that was never listed gets -32601 (method not found) instead of -32602',
    ...learning((m, ctx) => {
      if (!unknownPrompt(m, ctx) || !isObj(m.error)) return undefined;
      m.error.code = -32601;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'prompts.missing-argument-rendered',
    requirements: ['PM-01'],
    description: 'prompts/get of a listed prompt without one of its required arguments is rendered (the argument left empty) instead of getting -32602',
    ...learning((m, ctx) => {
      const missing = missingArgument(m, ctx);
      if (missing === undefined) return undefined;
      delete m.error;
      m.result = result(ctx, { messages: [{ role: 'user', content: { type: 'text', text: `${promptName(ctx)} with ${missing} = ""` } }] });
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'prompts.role-system',
    requirements: ['JR-04'],
    related: ['PM-01'],
    description: 'the first message of each prompts/get result has role "system" (only "user" and "assistant" exist)',
    ...onResult(['prompts/get'], (r) => {
      const first = (list(r, 'messages') ?? [])[0];
      if (!isObj(first)) return false;
      first.role = 'system';
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'prompts.content-array',
    requirements: ['JR-04'],
    related: ['PM-01'],
    description: 'prompt messages carry their content as an array of blocks instead of one content block',
    ...onResult(['prompts/get'], (r) => {
      let changed = false;
      for (const msg of list(r, 'messages') ?? []) {
        if (!isObj(msg) || !isObj(msg.content)) continue;
        msg.content = [msg.content];
        changed = true;
      }
      return changed;
    }),
  }),
];
