// Client-role robustness scenario: mcpspec's scripted server (suites/client/scripted-server.ts)
// answering list requests with near-valid results. Judged by client-checks.ts beside it.

import fc from 'fast-check';
import { definitionArbitraries } from '../../arbitraries/schema-arbitraries.js';
import type { NearValid } from '../../arbitraries/near-valid.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { MODERN_VERSION, runScript } from '../client/scripted-server.js';

export interface NearValidObs extends ClientObs {
  /** What was served: method, the violation, and the Received seq it answered. */
  served: { seq: number; method: string; label: NearValid['label'] }[];
}

const LIST_RESULTS: Record<string, string> = { 'tools/list': 'ListToolsResult', 'prompts/list': 'ListPromptsResult', 'resources/list': 'ListResourcesResult' };

/** List results that break exactly one schema constraint (generated from the schema of the era asked). */
export const nearValidAnswers = clientScenario<NearValidObs>({
  id: 'client-near-valid',
  title: 'a scripted server answering tools/list, prompts/list and resources/list with near-valid results',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const served: NearValidObs['served'] = [];
    let n = 0;
    const log = runScript(ctx.server, {
      modern: true,
      legacy: true,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        const def = LIST_RESULTS[req.method];
        if (!def) return undefined;
        const version = mctx.era === 'modern' ? MODERN_VERSION : '2025-11-25';
        const arb = definitionArbitraries(loadSchema(version), def, { specVersion: version, maxDepth: 2 }).nearValid;
        const [nv] = fc.sample(arb, { seed: ctx.options.seed + n++, numRuns: 1 });
        served.push({ seq: mctx.received.seq, method: req.method, label: nv.label });
        return { jsonrpc: '2.0', id: req.id, result: nv.value };
      },
    });
    return { ...(await observe(ctx, log)), served };
  },
});
