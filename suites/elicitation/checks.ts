// elicitation.*: what a server asks the user for through its client. Form mode passes the answer
// through the client in the clear, so it may not ask for secrets (IR-17; EL26, EL25; 2025-06-18 says
// the same of every elicitation). Judged on every form a server sends: a legacy elicitation/create
// request or an elicitation embedded in a 2026-07-28 InputRequiredResult.

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { holds, oracle, untestable, violated } from '../kit/check.js';
import { clipJson, evidence, isObj, resultOf } from '../kit/exchange.js';
import { firstOffenders } from '../kit/judge.js';

type Obj = Record<string, unknown>;

/**
 * The spec's examples of sensitive information (passwords, API keys, access tokens, payment
 * credentials) as word sequences. A property is judged by its name and title only: a description
 * may mention a password to say it is not wanted.
 */
const SECRETS: readonly string[][] = [
  ['password'], ['passwd'], ['passphrase'], ['passcode'],
  ['secret'], ['api', 'key'], ['apikey'], ['private', 'key'],
  ['access', 'token'], ['auth', 'token'], ['bearer', 'token'], ['refresh', 'token'], ['api', 'token'], ['session', 'token'],
  ['credit', 'card'], ['card', 'number'], ['cvv'], ['cvc'], ['iban'], ['ssn'], ['social', 'security'],
];

/** A name or title split into lower-case words: `apiKey`, `api_key` and `API Key` all give api, key. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function containsRun(list: string[], run: string[]): boolean {
  for (let i = 0; i + run.length <= list.length; i++) if (run.every((w, j) => list[i + j] === w)) return true;
  return false;
}

/** The secret a text names (`api key`), or undefined. */
export function secretNamed(text: string): string | undefined {
  const list = words(text);
  return SECRETS.find((run) => containsRun(list, run))?.join(' ');
}

/** Each property of a form's requestedSchema that asks for a secret, with the secret it names. */
export function secretFields(requestedSchema: unknown): { property: string; secret: string }[] {
  if (!isObj(requestedSchema) || !isObj(requestedSchema.properties)) return [];
  const out: { property: string; secret: string }[] = [];
  for (const [name, def] of Object.entries(requestedSchema.properties)) {
    const title = isObj(def) && typeof def.title === 'string' ? def.title : '';
    const secret = secretNamed(name) ?? secretNamed(title);
    if (secret) out.push({ property: name, secret });
  }
  return out;
}

/** Form-mode elicitation params (a missing mode is form mode) or undefined. */
function formParams(req: unknown): Obj | undefined {
  if (!isObj(req) || req.method !== 'elicitation/create' || !isObj(req.params)) return undefined;
  return req.params.mode === undefined || req.params.mode === 'form' ? req.params : undefined;
}

interface Form {
  where: string;
  params: Obj;
  evidence: (what: string) => Evidence;
}

export const elicitationChecks = [
  oracle({
    id: 'elicitation.form-no-secrets',
    title: 'a form-mode elicitation asks for no password, API key, access token or payment credential (those go through URL mode)',
    requirements: ['IR-17'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: { anyCapability: ['tools', 'prompts', 'resources'] },
    spec: SPEC.elicitation26,
    judge({ exchanges, events, deliberate }) {
      const forms: Form[] = [];
      // Legacy: elicitation/create requests the server sent (stdio, or an HTTP stream).
      for (const e of events) {
        if (e.dir !== 'in' || e.kind !== 'message' || !isObj(e.message) || !('id' in e.message)) continue;
        const params = formParams(e.message);
        if (params) forms.push({ where: 'elicitation/create', params, evidence: (what) => ({ what, actual: clipJson(params.requestedSchema), pointer: '/params/requestedSchema', seq: [e.seq] }) });
      }
      // 2026-07-28: elicitations embedded in InputRequiredResults of requests made in earnest.
      for (const ex of exchanges) {
        const r = resultOf(ex);
        if (deliberate(ex) || !r || !isObj(r.inputRequests)) continue;
        for (const [key, req] of Object.entries(r.inputRequests)) {
          const params = formParams(req);
          if (params) forms.push({ where: `${ex.method}: inputRequests.${key}`, params, evidence: (what) => evidence(what, ex, { actual: clipJson(params.requestedSchema), pointer: `/result/inputRequests/${key}/params/requestedSchema` }) });
        }
      }
      if (forms.length === 0) return untestable('the server asked for no form-mode elicitation (mcpspec declared elicitation and tried its tools, prompts and resources)');
      const bad = forms.flatMap((f) => secretFields(f.params.requestedSchema).map((s) => f.evidence(`${f.where} asks for "${s.property}" (${s.secret}) in form mode`)));
      if (bad.length) return violated(`${bad.length} form field(s) ask for a secret; first: ${bad[0].what}`, firstOffenders(bad));
      return holds(`${forms.length} form-mode elicitation(s), none asking for a password, key, token or payment credential`);
    },
  }),
];
