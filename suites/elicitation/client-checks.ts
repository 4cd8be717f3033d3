// client.elicitation-*: a client under test against the form of client-scenarios.ts beside it. An
// accepted form carries the fields the form gave defaults for (SEP-1034: clients that support
// defaults SHOULD pre-populate the form with them) and, for every enum field it answers, a value
// the field allows (SEP-1330 shapes: the content matches the requested schema).

import { SPEC } from '../../protocol/spec-links.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated, type Judgement } from '../kit/check.js';
import { isObj } from '../kit/exchange.js';
import { ev } from '../client/client-reading.js';
import { clientElicitationForms, ELICITATION_VERSIONS, FORM_SCHEMA, type FormAnswer, type FormObs } from './client-scenarios.js';

type Obj = Record<string, unknown>;

/** The fields of a form-mode requestedSchema that name a default, with it. */
export function defaultsOf(schema: unknown): [string, unknown][] {
  const props = isObj(schema) && isObj(schema.properties) ? schema.properties : {};
  return Object.entries(props).flatMap(([k, d]) => (isObj(d) && 'default' in d ? [[k, d.default] as [string, unknown]] : []));
}

const constsOf = (branches: unknown): unknown[] | undefined => (Array.isArray(branches) && branches.every((b) => isObj(b) && 'const' in b) ? branches.map((b) => (b as Obj).const) : undefined);

/** What a field allows, if it is an enum: single (a value) or multi (an array of values), and the allowed set. */
export function allowedOf(def: unknown): { multi: boolean; allowed: unknown[] } | undefined {
  if (!isObj(def)) return undefined;
  if (Array.isArray(def.enum)) return { multi: false, allowed: def.enum };
  const single = constsOf(def.oneOf) ?? constsOf(def.anyOf);
  if (single) return { multi: false, allowed: single };
  if (def.type === 'array' && isObj(def.items)) {
    const items = def.items;
    const set = Array.isArray(items.enum) ? items.enum : (constsOf(items.anyOf) ?? constsOf(items.oneOf));
    if (set) return { multi: true, allowed: set };
  }
  return undefined;
}

/** The accepted answers' content (an answer that is not an accept carries none). */
function accepted(o: FormObs): { a: FormAnswer; content: Obj }[] {
  return o.answers.flatMap((a) => (isObj(a.result) && a.result.action === 'accept' && isObj(a.result.content) ? [{ a, content: a.result.content }] : []));
}

function noAccepted(o: FormObs): Judgement {
  if (o.asked === 0 && o.undeclared > 0) return untestable(`the client's ${o.undeclared} tools/call request(s) came from a client that declared no form-mode elicitation (there, or at initialize): no form was asked`);
  if (o.asked === 0) return untestable('the client made no tools/call, so the server had no call to ask its form on');
  if (o.answers.length === 0) return untestable('the client never answered the form');
  return untestable(`the client answered the form ${o.answers.length} time(s), never accepting it (${o.answers.map((a) => (isObj(a.result) ? String(a.result.action) : 'no result')).join(', ')}): only accepted content shows its fields`);
}

/** Whether a value is of a form field's primitive type (string, integer, number, boolean). */
export function fitsType(type: unknown, v: unknown): boolean {
  if (type === 'integer') return Number.isInteger(v);
  if (type === 'number') return typeof v === 'number' && Number.isFinite(v);
  if (type === 'string' || type === 'boolean') return typeof v === type;
  return true;
}

export function judgeDefaults(o: FormObs): Judgement {
  const done = accepted(o);
  if (done.length === 0) return noAccepted(o);
  const defaults = defaultsOf(FORM_SCHEMA);
  const props = FORM_SCHEMA.properties as Record<string, { type?: unknown }>;
  const bad: Evidence[] = [];
  for (const { a, content } of done) {
    const missing = defaults.filter(([k]) => !(k in content));
    if (missing.length) bad.push(ev(`${a.where} leaves out ${missing.map(([k, d]) => `${k} (default ${JSON.stringify(d)})`).join(', ')}`, a.received, { pointer: `${a.pointer}/content`, expected: Object.fromEntries(defaults) }));
    const mistyped = defaults.filter(([k]) => k in content && !fitsType(props[k].type, content[k]));
    if (mistyped.length) bad.push(ev(`${a.where} answers ${mistyped.map(([k]) => `${k} with ${JSON.stringify(content[k])}, not a${props[k].type === 'integer' ? 'n' : ''} ${String(props[k].type)}`).join(', ')}`, a.received, { pointer: `${a.pointer}/content`, expected: Object.fromEntries(defaults) }));
  }
  if (bad.length) return violated(`${bad.length} problem(s) in ${done.length} accepted form(s) with defaulted fields (left out, or of another type than the default's field): a client that pre-populates defaults sends them; first: ${bad[0].what}`, bad.slice(0, 4));
  return holds(`${done.length} accepted form(s), each with every defaulted field (${defaults.map(([k]) => k).join(', ')})`);
}

export function judgeEnumValues(o: FormObs): Judgement {
  const done = accepted(o);
  if (done.length === 0) return noAccepted(o);
  const props = FORM_SCHEMA.properties as Record<string, unknown>;
  const bad: Evidence[] = [];
  let judged = 0;
  for (const { a, content } of done) {
    for (const [k, v] of Object.entries(content)) {
      const field = allowedOf(props[k]);
      if (!field) continue;
      judged++;
      const member = (x: unknown) => field.allowed.some((y) => JSON.stringify(y) === JSON.stringify(x));
      const ok = field.multi ? Array.isArray(v) && v.every(member) : member(v);
      if (!ok) bad.push(ev(`${a.where}: ${k} is ${JSON.stringify(v)}`, a.received, { pointer: `${a.pointer}/content/${k}`, expected: field.multi ? `an array of ${JSON.stringify(field.allowed)}` : `one of ${JSON.stringify(field.allowed)}` }));
    }
  }
  if (judged === 0) return untestable('the accepted content answers none of the enum fields');
  if (bad.length) return violated(`${bad.length} of ${judged} enum answer(s) are not among the values the field allows; first: ${bad[0].what}`, bad.slice(0, 4));
  return holds(`${judged} enum answer(s) (single- and multi-select, titled, untitled, enumNames), each among the values its field allows`);
}

const REQUIRES = { anyCapability: ['elicitation'] };

const defaultsApplied = check(clientElicitationForms, {
  id: 'client.elicitation-defaults',
  // elicitation: "Clients that support defaults SHOULD pre-populate form fields with these values." (SEP-1034)
  title: 'an accepted form-mode elicitation carries the fields the form gave defaults for (string, integer, number, enum, boolean), each of its field\'s type',
  requirements: ['EL26', 'EL25'],
  level: 'SHOULD',
  versions: [...ELICITATION_VERSIONS],
  role: 'client',
  requires: REQUIRES,
  spec: SPEC.elicitation26,
  judge: judgeDefaults,
});

const enumValues = check(clientElicitationForms, {
  id: 'client.elicitation-enum-values',
  // elicitation: "For form mode: The content field contains the submitted data matching the requested schema" (enum shapes of SEP-1330).
  title: 'every enum field of an accepted form is answered with a value it allows (untitled, titled oneOf, legacy enumNames, multi-select items enum or anyOf)',
  requirements: ['EL26', 'EL25'],
  level: 'SHOULD',
  versions: [...ELICITATION_VERSIONS],
  role: 'client',
  requires: REQUIRES,
  spec: SPEC.elicitation26,
  judge: judgeEnumValues,
});

export const elicitationClientChecks = [defaultsApplied, enumValues];
