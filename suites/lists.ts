// lists.*: a change of a list, provoked black-box, is notified (2026-07-28 SB-12 on a listen stream
// that asked for it, CA-10; 2025-era on the session when listChanged is declared).

import { SPEC } from '../protocol/spec-links.js';
import { LEGACY, MODERN } from '../protocol/versions.js';
import { check, holds, skip, untestable, violated, type Judgement, type JudgeContext } from './check.js';
import { clipJson, evidence, isObj, outcome, resultOf } from './exchange.js';
import { toolsChangeScenario, type ToolsChangeObs } from './scenarios/tools-change.js';

function judgeToolsChange(o: ToolsChangeObs, ctx: JudgeContext): Judgement {
  if (!o.declared) return skip('the server does not declare tools.listChanged');
  if (o.noTrigger) return untestable(o.noTrigger);
  if (o.listenFailed) return untestable(`subscriptions/listen (toolsListChanged) was not acknowledged: ${outcome(o.listenFailed)}`);
  if (!o.call || !resultOf(o.call)) return untestable(`calling ${o.trigger} got ${outcome(o.call)}`);
  const names = (list?: unknown[]) => (list ?? []).map((t) => (isObj(t) ? String(t.name) : '?'));
  const changed = JSON.stringify(o.before) !== JSON.stringify(o.after);
  const where = ctx.era === 'modern' ? 'on the listen stream' : 'on the session';
  if (o.notified) {
    return holds(`after ${o.trigger}, notifications/tools/list_changed came ${where}; the next tools/list ${changed ? 'shows the change' : 'is the same as before (the notification came without a visible change)'}`);
  }
  if (!changed) return untestable(`calling ${o.trigger} changed nothing visible in tools/list and no notification came`);
  if (o.unseeable) return untestable(`the list changed after ${o.trigger}, but no notification came on the call's stream; one on the standalone GET stream (which mcpspec does not open) cannot be seen`);
  return violated(`after ${o.trigger} the tool list changed, but no notifications/tools/list_changed came ${where} within ${o.waitedMs} ms`, [
    evidence(`tools/call ${o.trigger}`, o.call, { expected: 'notifications/tools/list_changed', actual: clipJson({ before: names(o.before), after: names(o.after) }) }),
  ]);
}

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
];
