// The sequences a fuzz campaign runs: the steps of `sequenceArbitrary` (arbitraries/sequences.ts),
// the transport-layer steps of the transport in use (transport-steps.ts), and short stateful motifs
// that put a step that changes state right before a step that acts on it (a list, then any step; a
// subscribe, then an unsubscribe; a call with very long strings; the same notification twice), so
// bugs that need two steps in order or one rare value show up within small budgets. Plus id themes:
// the request ids of a whole sequence drawn in one unusual style, the styles cycled over the
// sequences of a run, so every style shows up within the first few sequences.

import fc from 'fast-check';
import { schemaArbitraries } from './schema-arbitraries.js';
import { describeStep, notificationStep, stepArbitrary, toolArguments, type IdStyle, type Step, type TargetProfile } from './sequences.js';
import { describeTransportStep, transportStepArbitrary, type TransportStep } from './transport-steps.js';

export type FuzzStep = Step | TransportStep;

export interface FuzzProfile extends TargetProfile {
  /** The transport in use: adds its transport-layer steps (absent: none). */
  transport?: 'stdio' | 'http';
}

export interface FuzzSequenceOptions {
  maxLength?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The id style of each sequence of a run, cycled by sequence index: every unusual style shows up in
 * the first seven sequences. A themed sequence gives every request that the session would number
 * (and every near-valid message whose id is not the mutation) an id of that style.
 */
export const ID_THEMES: readonly IdStyle[] = ['spaces', 'numeric-string', 'counter', 'unicode', 'big', 'negative', 'long'];

export function idTheme(sequenceIndex: number): IdStyle {
  return ID_THEMES[((sequenceIndex % ID_THEMES.length) + ID_THEMES.length) % ID_THEMES.length];
}

const LIST_METHODS = ['resources/list', 'prompts/list', 'resources/templates/list', 'tools/list'];

/** Arguments with every string member very long (1001-5000 characters; shrinks towards 1001). */
function longStringArguments(inputSchema: Record<string, unknown>): fc.Arbitrary<{ arguments: Record<string, unknown>; valid: boolean }> | undefined {
  const props = isObj(inputSchema.properties) ? inputSchema.properties : {};
  const strings = Object.entries(props).filter(([, s]) => isObj(s) && s.type === 'string' && !('enum' in s) && !('const' in s) && !('pattern' in s) && !('format' in s));
  if (strings.length === 0) return undefined;
  const required = new Set(Array.isArray(inputSchema.required) ? (inputSchema.required as string[]) : []);
  // Non-string required members would need values of their own: leave such tools to the other steps.
  if ([...required].some((k) => !strings.some(([n]) => n === k))) return undefined;
  const arbs = schemaArbitraries(inputSchema, { maxDepth: 3 });
  const members: Record<string, fc.Arbitrary<string>> = {};
  for (const [k] of strings) members[k] = fc.integer({ min: 1001, max: 5000 }).map((n) => 'x'.repeat(n));
  return fc.record(members, { requiredKeys: strings.map(([k]) => k).filter((k) => required.has(k)) }).map((a) => ({ arguments: a as Record<string, unknown>, valid: arbs.validate(a) }));
}

/** Two- or one-step motifs drawn from what the profile declares. */
function motifs(profile: FuzzProfile, single: fc.Arbitrary<Step>, seed: number): { weight: number; arbitrary: fc.Arbitrary<Step[]> }[] {
  const out: { weight: number; arbitrary: fc.Arbitrary<Step[]> }[] = [];
  const lists = profile.methods.filter((m) => LIST_METHODS.includes(m));
  if (lists.length) {
    // A list, then any step: later steps refer to what was listed, and state set by listing matters.
    // The step after it is a tool call two times in three (state set by listing may break a tool).
    const calls = profile.tools.length ? stepArbitrary({ ...profile, methods: [], resources: false, prompts: false, completions: false, subscriptions: false }, seed) : single;
    out.push({ weight: 3, arbitrary: fc.tuple(fc.constantFrom(...lists), fc.oneof({ weight: 1, arbitrary: single }, { weight: 2, arbitrary: calls })).map(([method, next]): Step[] => [{ kind: 'request', method, params: {}, idStyle: 'counter' }, next]) });
  }
  if (profile.subscriptions) {
    out.push({
      weight: 1,
      arbitrary: fc.tuple(fc.nat({ max: 7 }), fc.nat({ max: 3 })).map(([index, sub]): Step[] => [
        { kind: 'subscribe', uri: { ref: 'resource', index }, idStyle: 'counter' },
        { kind: 'unsubscribe', subscription: { ref: 'subscription', index: sub }, idStyle: 'counter' },
      ]),
    });
  }
  const long: fc.Arbitrary<Step[]>[] = [];
  for (const t of profile.tools) {
    const a = longStringArguments(t.inputSchema);
    if (a) long.push(a.map(({ arguments: args, valid }): Step[] => [valid ? { kind: 'call', tool: t.name, arguments: args, variant: 'edge', idStyle: 'counter' } : { kind: 'call', tool: t.name, arguments: args, variant: 'near-valid', label: 'very long strings outside the inputSchema', idStyle: 'counter' }]));
  }
  if (long.length) out.push({ weight: 1, arbitrary: fc.oneof(...long) });
  // The same notification twice in a row, as a client that retries or a relay that duplicates sends
  // it: a receiver's bookkeeping (dedupe, cancellation, progress) must take a repeat in its stride.
  out.push({ weight: 1, arbitrary: notificationStep(profile).map((s): Step[] => [s, s]) });
  return out;
}

/**
 * A fuzz sequence: single steps (those of `stepArbitrary`, and the transport's own), mixed with
 * stateful motifs; at most `maxLength` (8) steps. fast-check shrinks it by dropping steps or motifs
 * and simplifying each.
 */
export function fuzzSequenceArbitrary(profile: FuzzProfile, opts: FuzzSequenceOptions = {}, seed = 0): fc.Arbitrary<FuzzStep[]> {
  const max = opts.maxLength ?? 8;
  const single = stepArbitrary(profile, seed);
  const parts: { weight: number; arbitrary: fc.Arbitrary<FuzzStep[]> }[] = [{ weight: 8, arbitrary: single.map((s) => [s]) }];
  if (profile.transport) {
    // SSE steps also call tools with valid arguments (servers often answer tools/call as SSE).
    const sseTools = profile.transport === 'http' ? profile.tools.slice(0, 5).map((t) => ({ name: t.name, arguments: toolArguments(t.inputSchema, seed).filter((a) => a.variant === 'valid').map((a) => a.arguments) })) : [];
    const t = transportStepArbitrary({ transport: profile.transport, era: profile.era, version: profile.version, methods: profile.methods, sseTools });
    if (t) parts.push({ weight: 3, arbitrary: t.map((s) => [s]) });
  }
  parts.push(...motifs(profile, single, seed));
  return fc.array(fc.oneof(...parts), { minLength: 1, maxLength: max }).map((groups) => groups.flat().slice(0, max));
}

export function isTransportStep(s: FuzzStep): s is TransportStep {
  return s.kind === 'split' || s.kind === 'joined' || s.kind === 'headers' || s.kind === 'sse';
}

/** A one-line description of any fuzz step. */
export function describeFuzzStep(s: FuzzStep): string {
  return isTransportStep(s) ? describeTransportStep(s) : describeStep(s);
}
