// Sequences of client steps for stateful fuzzing: what to send, in what order, drawn from what the
// target declared. Pure data and fast-check arbitraries; nothing here knows about transports. The
// runner resolves each step to a message (ids, symbolic references to things the server listed)
// when it sends it, so a shrunk sequence replays against a fresh target exactly.

import fc from 'fast-check';
import { messages } from './messages.js';
import { schemaArbitraries } from './schema-arbitraries.js';
import type { NearValid } from './near-valid.js';

/** How a request id is chosen: the session's counter, or an unusual legal id (unique per step). */
export type IdStyle = 'counter' | 'big' | 'negative' | 'spaces' | 'unicode' | 'numeric-string' | 'long';

/** Valid, valid at the edges (empty/very long strings, unicode, extreme numbers), or near-valid (one constraint broken). */
export type Variant = 'valid' | 'edge' | 'near-valid';

/**
 * A reference to something the session knows, resolved when the step runs (`index` modulo the list
 * length): a listed resource, prompt or resource template, a resource this sequence subscribed to,
 * or a request of this sequence that was already answered.
 */
export interface ListedRef {
  ref: 'resource' | 'prompt' | 'template' | 'subscription' | 'answered';
  index: number;
}

/**
 * The arguments of a prompts/get: every declared one, only the required ones, all but one required
 * one (near-valid when the prompt has one, else the same as `required`), or a prompt name nobody listed.
 */
export type PromptArgs = 'all' | 'required' | 'missing-required' | 'unknown-prompt';

export type Step =
  /** A request with params; the session adds its `_meta` and id (or uses `idStyle`). */
  | { kind: 'request'; method: string; params: Record<string, unknown>; idStyle: IdStyle }
  /** A whole near-valid JSON-RPC message generated from the schema, sent verbatim (id replaced unless the mutation is the id). */
  | { kind: 'raw'; method: string; message: unknown; label: string }
  | { kind: 'call'; tool: string; arguments: unknown; variant: Variant; label?: string; idStyle: IdStyle }
  | { kind: 'read'; uri: ListedRef; idStyle: IdStyle }
  /** prompts/get of a listed prompt; every argument sent gets `value`. */
  | { kind: 'prompt'; prompt: ListedRef; args: PromptArgs; value: string; idStyle: IdStyle }
  /** completion/complete for an argument of a listed prompt or a variable of a listed resource template. */
  | { kind: 'complete'; target: ListedRef; argument: number; value: string; idStyle: IdStyle }
  /** Legacy resources/subscribe of a listed resource, and resources/unsubscribe of one this sequence subscribed to. */
  | { kind: 'subscribe'; uri: ListedRef; idStyle: IdStyle }
  | { kind: 'unsubscribe'; subscription: ListedRef; idStyle: IdStyle }
  /** `answered`: params.requestId becomes the id of an earlier answered request of the sequence. */
  | { kind: 'notify'; method: string; params?: Record<string, unknown>; why: string; answered?: ListedRef };

export interface SequenceTool {
  name: string;
  inputSchema: Record<string, unknown>;
}

/** What the target declared, as the sequences see it. */
export interface TargetProfile {
  /** The schema key judging this target (2025-06-18, 2025-11-25, 2026-07-28). */
  version: string;
  era: 'legacy' | 'modern';
  /** Request methods to send (valid and near-valid), already filtered by the declared capabilities. */
  methods: string[];
  /** Tools that may be called. */
  tools: SequenceTool[];
  /** The target declared resources: resources/read steps refer to listed URIs. */
  resources: boolean;
  /** The target declared prompts: prompts/get steps refer to listed prompts. */
  prompts?: boolean;
  /** The target declared completions: completion/complete steps refer to listed prompts and templates. */
  completions?: boolean;
  /** Legacy, `resources.subscribe` declared: subscribe/unsubscribe steps. */
  subscriptions?: boolean;
}

export interface SequenceOptions {
  maxLength?: number;
}

/** Methods that are safe to send with generated params on any server: no side effects. */
export const SAFE_METHODS: Record<string, string | undefined> = {
  ping: undefined,
  'server/discover': undefined,
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'prompts/list': 'prompts',
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request methods worth fuzzing for a target of this era with these capabilities. */
export function declaredMethods(era: 'legacy' | 'modern', capabilities: Record<string, unknown>): string[] {
  return Object.entries(SAFE_METHODS)
    .filter(([m, cap]) => (m === 'ping' ? era === 'legacy' : m === 'server/discover' ? era === 'modern' : cap !== undefined && cap in capabilities))
    .map(([m]) => m);
}

export const idStyle: fc.Arbitrary<IdStyle> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<IdStyle>('counter') },
  { weight: 1, arbitrary: fc.constantFrom<IdStyle>('big', 'negative', 'spaces', 'unicode', 'numeric-string', 'long') },
);

/** The id an unusual style gives the step at this position: legal, and unique within the sequence. */
export function unusualId(style: Exclude<IdStyle, 'counter'>, position: number): string | number {
  switch (style) {
    case 'big':
      return Number.MAX_SAFE_INTEGER - position;
    case 'negative':
      return -(1_000_000 + position);
    case 'spaces':
      return `  step ${position}  `;
    case 'unicode':
      return `ид-${position}-\u{1F600}\u00E9\u200D`;
    case 'numeric-string':
      // A string that reads as a number: a server that parses ids answers with the number.
      return String(900_000 + position);
    case 'long':
      return `long-${position}-${'x'.repeat(500)}`;
  }
}

// '\uD800' is an unpaired UTF-16 surrogate: legal in a JSON string (as the escape \ud800), not
// well-formed Unicode, so encoders and validators that assume well-formed text may throw on it.
const UNICODE_EDGES = ['\u0000', '\uFFFF', '\u{1F600}\u{1F468}\u200D\u{1F469}', '\u202Eevil', 'e\u0301\u0301', 'a\u2028b\u2029c', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', ' ', 'x\uD800y'];

/** Edge values for one schema node: legal JSON of its type at the extremes. */
function edgeValue(schema: unknown, depth: number): fc.Arbitrary<unknown> {
  if (!isObj(schema)) return fc.constant(null);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.constant(''),
        fc.constantFrom(...UNICODE_EDGES),
        // Very long: shrinking keeps it past 1000 characters, where length limits tend to live.
        fc.integer({ min: 1001, max: 5000 }).map((n) => 'x'.repeat(n)),
      );
    case 'integer':
      return fc.constantFrom(0, -1, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
    case 'number':
      return fc.constantFrom(0, -0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 5e-324);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth <= 0 ? fc.constant([]) : fc.oneof(fc.constant([]), edgeValue(schema.items, depth - 1).map((v) => [v]));
    case 'object':
      return depth <= 0 ? fc.constant({}) : edgeObject(schema, depth - 1);
    default:
      return fc.constantFrom('', 0, null);
  }
}

/** An object with every required member and each optional one present or absent, valued at the edges. */
function edgeObject(schema: Record<string, unknown>, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, sub] of Object.entries(props)) members[k] = edgeValue(sub, depth);
  const requiredKeys = Object.keys(members).filter((k) => required.has(k));
  return fc.record(members, { requiredKeys });
}

/** Tool arguments from an inputSchema: valid, edge (judged valid or near-valid by the schema itself), near-valid. */
export function toolArguments(inputSchema: Record<string, unknown>, seed = 0): fc.Arbitrary<{ arguments: unknown; variant: Variant; label?: string }> {
  const arbs = schemaArbitraries(inputSchema, { maxDepth: 3 });
  const parts: fc.Arbitrary<{ arguments: unknown; variant: Variant; label?: string }>[] = [
    arbs.valid.map((v) => ({ arguments: v, variant: 'valid' as const })),
    edgeObject(inputSchema, 2).map((v) =>
      arbs.validate(v) ? { arguments: v, variant: 'edge' as const } : { arguments: v, variant: 'near-valid' as const, label: 'edge value outside the inputSchema' },
    ),
  ];
  try {
    // A non-object `arguments` breaks the request schema, not the tool's: keep object-valued cases
    // (and only when the schema has some: fc.filter would spin forever otherwise).
    if (fc.sample(arbs.nearValid, { seed, numRuns: 10 }).some((nv) => isObj(nv.value))) {
      parts.push(arbs.nearValid.filter((nv) => isObj(nv.value)).map((nv: NearValid) => ({ arguments: nv.value, variant: 'near-valid' as const, label: `${nv.label.path || '/'} ${nv.label.keyword}` })));
    }
  } catch {
    // the schema accepts every object: no near-valid arguments exist
  }
  return fc.oneof(...parts);
}

/** A generated cursor is refused as unknown whatever else the request says: keep it only where it is the mutation. */
function withoutMadeUpCursor(nv: NearValid): unknown {
  const v = nv.value;
  if (!isObj(v) || !isObj(v.params) || !('cursor' in v.params) || nv.label.path.startsWith('/params/cursor')) return v;
  const { cursor: _made_up, ...params } = v.params;
  return { ...v, params };
}

/** Valid params of a method, from the schema, without what the session or the server owns (`_meta`, cursors). */
function validParams(version: string, method: string): fc.Arbitrary<Record<string, unknown>> {
  return messages(version)
    .request(method)
    .valid.map((msg) => {
      const p = isObj(msg) && isObj(msg.params) ? { ...msg.params } : {};
      delete p._meta;
      delete p.cursor;
      return p;
    });
}

function nearValidMessage(version: string, method: string): fc.Arbitrary<Step> {
  return messages(version)
    .request(method)
    .nearValid.map((nv) => ({ kind: 'raw' as const, method, message: withoutMadeUpCursor(nv), label: `${nv.label.path || '/'} ${nv.label.keyword}` }));
}

const ref = (kind: ListedRef['ref']): fc.Arbitrary<ListedRef> => fc.record({ ref: fc.constant(kind), index: fc.nat({ max: 7 }) });

/** A prompt argument or completion value: plain short text, or an edge string. */
const argumentValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(...UNICODE_EDGES) },
  { weight: 1, arbitrary: fc.integer({ min: 1001, max: 3000 }).map((n) => 'y'.repeat(n)) },
);

/** One step, drawn from what the target declared. */
export function stepArbitrary(profile: TargetProfile, seed = 0): fc.Arbitrary<Step> {
  const parts: { weight: number; arbitrary: fc.Arbitrary<Step> }[] = [];
  if (profile.methods.length) {
    parts.push({
      weight: 3,
      arbitrary: fc.oneof(...profile.methods.map((m) => fc.record({ kind: fc.constant('request' as const), method: fc.constant(m), params: validParams(profile.version, m), idStyle }))),
    });
    parts.push({ weight: 2, arbitrary: fc.oneof(...profile.methods.map((m) => nearValidMessage(profile.version, m))) });
  }
  if (profile.tools.length) {
    parts.push({
      weight: 4,
      arbitrary: fc.oneof(
        ...profile.tools.map((t) =>
          fc.tuple(toolArguments(t.inputSchema, seed), idStyle).map(([a, id]): Step => {
            const step: Step = { kind: 'call', tool: t.name, arguments: a.arguments, variant: a.variant, idStyle: id };
            if (a.label) step.label = a.label;
            return step;
          }),
        ),
      ),
    });
  }
  if (profile.resources) {
    parts.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), uri: fc.record({ ref: fc.constant('resource' as const), index: fc.nat({ max: 7 }) }), idStyle }) });
  }
  if (profile.prompts) {
    parts.push({
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('prompt' as const),
        prompt: ref('prompt'),
        args: fc.constantFrom<PromptArgs>('all', 'required', 'missing-required', 'unknown-prompt'),
        value: argumentValue,
        idStyle,
      }),
    });
  }
  if (profile.completions) {
    parts.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), target: fc.record({ ref: fc.constantFrom<'prompt' | 'template'>('prompt', 'template'), index: fc.nat({ max: 7 }) }), argument: fc.nat({ max: 3 }), value: argumentValue, idStyle }) });
  }
  if (profile.subscriptions) {
    parts.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), uri: ref('resource'), idStyle }) });
    parts.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('unsubscribe' as const), subscription: ref('subscription'), idStyle }) });
  }
  parts.push({ weight: 1, arbitrary: notificationStep(profile) });
  return fc.oneof(...parts);
}

/** A notification in an odd place: cancelling what was never sent or was already answered, progress nobody asked for, a second initialized. */
export function notificationStep(profile: Pick<TargetProfile, 'era'>): fc.Arbitrary<Step> {
  const notifications: fc.Arbitrary<Step>[] = [
    fc.oneof(fc.constant<string | number>('mcpspec-no-such-request'), fc.integer({ min: 900_000, max: 999_999 })).map((requestId) => ({
      kind: 'notify' as const,
      method: 'notifications/cancelled',
      params: { requestId, reason: 'fuzz' },
      why: 'cancels a request that was never sent',
    })),
    ref('answered').map((answered) => ({ kind: 'notify' as const, method: 'notifications/cancelled', params: { reason: 'fuzz' }, answered, why: 'cancels a request that was already answered' })),
    fc.record({ progressToken: fc.constantFrom<string | number>('mcpspec-no-such-token', 987_654), progress: fc.constantFrom(0, 1, 0.5, 1e9) }).map((params) => ({
      kind: 'notify' as const,
      method: 'notifications/progress',
      params,
      why: 'progress for a token the server never issued',
    })),
  ];
  if (profile.era === 'legacy') notifications.push(fc.constant({ kind: 'notify' as const, method: 'notifications/initialized', why: 'initialized a second time' }));
  return fc.oneof(...notifications);
}

/** A sequence of steps; fast-check shrinks it by dropping steps and simplifying each. */
export function sequenceArbitrary(profile: TargetProfile, opts: SequenceOptions = {}, seed = 0): fc.Arbitrary<Step[]> {
  return fc.array(stepArbitrary(profile, seed), { minLength: 1, maxLength: opts.maxLength ?? 8 });
}

/** A one-line description of a step, for consoles and reports. */
export function describeStep(s: Step): string {
  const clip = (v: unknown) => {
    const t = JSON.stringify(v) ?? 'undefined';
    return t.length > 80 ? `${t.slice(0, 60)}…(${t.length} chars)` : t;
  };
  const id = 'idStyle' in s && s.idStyle !== 'counter' ? ` [id: ${s.idStyle}]` : '';
  switch (s.kind) {
    case 'request':
      return `${s.method} ${clip(s.params)}${id}`;
    case 'raw':
      return `${s.method} near-valid (${s.label})`;
    case 'call':
      return `tools/call ${s.tool} ${clip(s.arguments)} (${s.variant}${s.label ? `: ${s.label}` : ''})${id}`;
    case 'read':
      return `resources/read <listed resource #${s.uri.index}>${id}`;
    case 'prompt':
      return `prompts/get ${s.args === 'unknown-prompt' ? '<a prompt nobody listed>' : `<listed prompt #${s.prompt.index}>`} (${s.args} arguments = ${clip(s.value)})${id}`;
    case 'complete':
      return `completion/complete <listed ${s.target.ref} #${s.target.index}, argument #${s.argument}> value ${clip(s.value)}${id}`;
    case 'subscribe':
      return `resources/subscribe <listed resource #${s.uri.index}>${id}`;
    case 'unsubscribe':
      return `resources/unsubscribe <subscription #${s.subscription.index} of this sequence>${id}`;
    case 'notify':
      return `${s.method} (${s.why}${s.answered ? `: request #${s.answered.index} answered in this sequence` : ''})`;
  }
}
