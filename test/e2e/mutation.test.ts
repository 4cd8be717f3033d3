// The mutation score's fast subset: one mutation per area on server-everything over stdio and over
// HTTP, and a few of what a real client sends, each run through `mcpspec mutate` and judged against
// the target's baseline. Each must be killed: mcpspec exits 1 with a worse verdict citing the rule the
// mutation breaks. And the proxy alone (identity) leaves every verdict as it was. The full score is
// `npm run mutation` (docs/mutation.md).
import { describe, expect, it } from 'vitest';
import { mutationById } from '../../mutation/catalogue.js';
import { scoreTarget, scoreTargets } from '../../bench/mutation-score.js';

const TARGETS = scoreTargets('6s', '15s');

const FAST: Record<string, string[]> = {
  'everything-stdio': ['jsonrpc.answer-id-type', 'tools.structured-content-missing', 'prompts.unknown-method-not-found', 'tasks.legacy-terminal-status-changes', 'stdio.pretty-printed'],
  'everything-http': ['jsonrpc.error-no-message', 'resources.contents-without-uri', 'tasks.legacy-terminal-status-changes', 'http.notification-200'],
  'sdk2-client': ['meta.client-no-protocol-version', 'input-required.client-reuses-id'],
  'sdk1-client': ['jsonrpc.client-reuses-answered-id', 'lifecycle.client-no-initialized'],
};

describe('the mutation score, fast subset', () => {
  for (const [target, ids] of Object.entries(FAST)) {
    it(`${target}: the proxy is transparent and ${ids.length} mutations are killed`, { timeout: 600_000 }, async () => {
      const chosen = ids.map((id) => {
        const m = mutationById(id);
        expect(m, id).toBeDefined();
        return m!;
      });
      const score = await scoreTarget(target, TARGETS[target], chosen, 2, () => undefined);
      // Checks whose verdict follows the target's own timers are reported, and only those may differ
      // in failing; a straggler the run had or did not have time to see moves only between pass and untestable.
      for (const d of score.transparency) expect(d, 'only a timer-driven check may differ in failing').toMatch(/^asks\.answered:|: (pass|untestable|skip) -> (pass|untestable|skip)$/);
      expect(Object.fromEntries(score.results.map((r) => [r.mutation, r.outcome]))).toEqual(Object.fromEntries(ids.map((id) => [id, 'killed'])));
    });
  }
});
