// lists.*: a change of a list, provoked black-box, is notified (2026-07-28 SB-12 on a listen stream
// that asked for it, CA-10; 2025-era on the session when listChanged is declared); 2026-07-28 lists
// do not vary per connection (VN-10).

import { SPEC } from '../../protocol/spec-links.js';
import { LEGACY, MODERN } from '../../protocol/versions.js';
import { check, holds, skip, untestable, violated, type Judgement, type JudgeContext } from '../kit/check.js';
import { clipJson, evidence, isObj, outcome, resultOf } from '../kit/exchange.js';
import { PROMPTS_LIST, promptsChangeScenario, TOOLS_LIST, toolsChangeScenario, type ChangingList, type ListChangeObs } from './tools-change-scenario.js';
import { perConnectionScenario, same, SETTLE_MS, type ListComparison, type Reading } from './per-connection-scenario.js';

/** What one list's readings on two connections show. */
function compare(c: ListComparison): { kind: 'same' | 'differs' | 'unsettled' | 'unreadable'; why?: string } {
  const [r1, r2] = c.rounds;
  const unread = c.rounds.flatMap((r) => [r.here, r.there]).find((x) => !x.keys);
  if (same(r1.here, r1.there) || (r2 && same(r2.here, r2.there))) return { kind: 'same' };
  if (unread) return { kind: 'unreadable', why: `${c.method} could not be read to its end: ${outcome(unread.failed)}` };
  // Each connection kept its own set across both rounds: no change over time explains the difference.
  if (r2 && same(r1.here, r2.here) && same(r1.there, r2.there)) return { kind: 'differs' };
  return { kind: 'unsettled', why: `${c.method} kept changing while it was compared` };
}

const onlyIn = (a: Reading, b: Reading) => (a.keys ?? []).filter((k) => !(b.keys ?? []).includes(k));

/** The judgement of a provoked list change: was it notified (2026-07-28: on the listen stream that asked)? */
function judgeListChange(list: ChangingList) {
  return (o: ListChangeObs, ctx: JudgeContext): Judgement => {
    if (!o.declared) return skip(`the server does not declare ${list.capability}.listChanged`);
    if (o.noTrigger) return untestable(o.noTrigger);
    if (o.listenFailed) return untestable(`subscriptions/listen (${list.filter}) was not acknowledged: ${outcome(o.listenFailed)}`);
    if (!o.call || !resultOf(o.call)) return untestable(`calling ${o.trigger} got ${outcome(o.call)}`);
    const names = (items?: unknown[]) => (items ?? []).map((t) => (isObj(t) ? String(t.name) : '?'));
    const changed = JSON.stringify(o.before) !== JSON.stringify(o.after);
    const where = ctx.era === 'modern' ? 'on the listen stream' : 'on the session';
    if (o.notified) {
      return holds(`after ${o.trigger}, ${list.notification} came ${where}; the next ${list.method} ${changed ? 'shows the change' : 'is the same as before (the notification came without a visible change)'}`);
    }
    if (!changed) return untestable(`calling ${o.trigger} changed nothing visible in ${list.method} and no notification came`);
    if (o.unseeable) return untestable(`the list changed after ${o.trigger}, but no notification came on the call's stream; one on the standalone GET stream (which mcpspec does not open) cannot be seen`);
    return violated(`after ${o.trigger} the ${list.noun} changed, but no ${list.notification} came ${where} within ${o.waitedMs} ms`, [
      evidence(`tools/call ${o.trigger}`, o.call, { expected: list.notification, actual: clipJson({ before: names(o.before), after: names(o.after) }) }),
    ]);
  };
}

const judgeToolsChange = judgeListChange(TOOLS_LIST);

export const listsChecks = [
  check(toolsChangeScenario, {
    id: 'lists.tools-changed',
    title: 'a tool list change (provoked by a tool known to change it) is notified on a subscriptions/listen stream that asked for toolsListChanged',
    requirements: ['SB-12', 'CA-10'],
    level: 'SHOULD',
    versions: MODERN,
    requires: { capabilities: ['tools'] },
    spec: SPEC.tools26,
    judge: judgeToolsChange,
  }),
  check(toolsChangeScenario, {
    id: 'lists.tools-changed-legacy',
    title: 'a tool list change (provoked by a tool known to change it) is notified with notifications/tools/list_changed when listChanged is declared (2025-era)',
    requirements: ['SB-12'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: { capabilities: ['tools'] },
    spec: SPEC.tools25,
    judge: judgeToolsChange,
  }),
  check(promptsChangeScenario, {
    id: 'lists.prompts-changed',
    // prompts (SB-12): "When the list of available prompts changes, servers that declared the
    // `listChanged` capability SHOULD send a notification to clients that have opened a
    // `subscriptions/listen` stream with `promptsListChanged: true`". The change is provoked with a
    // tool known to make it (the official suite's test_trigger_prompt_change): untestable without one.
    title: 'a prompt list change (provoked by a tool known to change it) is notified on a subscriptions/listen stream that asked for promptsListChanged',
    requirements: ['SB-12'],
    level: 'SHOULD',
    versions: MODERN,
    requires: { capabilities: ['prompts'] },
    spec: SPEC.prompts26,
    judge: judgeListChange(PROMPTS_LIST),
  }),
  check(perConnectionScenario, {
    id: 'lists.same-per-connection',
    title: 'tools/list, prompts/list and resources/list give the same set on every connection (stdio: every process of the server)',
    requirements: ['VN-10', 'VN-09'],
    level: 'MUST',
    versions: MODERN,
    requires: { transports: ['stdio'] },
    spec: SPEC.tools26,
    judge({ comparisons, none }) {
      if (none) return skip(none);
      const seen = comparisons.map((c) => ({ c, ...compare(c) }));
      const bad = seen.filter((x) => x.kind === 'differs');
      if (bad.length) {
        return violated(`${bad.map(({ c }) => c.method).join(', ')} ${bad.length === 1 ? 'differs' : 'differ'} between two processes of the server, in both readings ${SETTLE_MS} ms apart; first: ${bad[0].c.method}`, bad.map(({ c }) => {
          const { here, there } = c.rounds[1];
          return { what: `${c.method} on two connections`, expected: 'the same set on both', actual: { onlyOnFirst: onlyIn(here, there), onlyOnSecond: onlyIn(there, here) }, seq: [...here.pages, ...there.pages].flatMap((p) => p.seq.slice(0, 1)).slice(0, 10) };
        }));
      }
      const ok = seen.filter((x) => x.kind === 'same');
      const others = seen.filter((x) => x.kind !== 'same').map((x) => x.why);
      if (ok.length === 0) return untestable(others.join('; '));
      return holds(`${ok.map(({ c }) => c.method).join(', ')}: the same set on two processes${others.length ? `; not compared: ${others.join('; ')}` : ''}`);
    },
  }),
];
