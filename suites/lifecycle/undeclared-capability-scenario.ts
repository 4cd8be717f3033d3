import { LEGACY } from '../../protocol/versions.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

export interface UndeclaredObs {
  /** One request for each gated capability the server did not declare. */
  probes: { capability: string; method: string; exchange: Exchange }[];
}

/** Methods of server capabilities, with harmless params. */
export const GATED: [string, string, Record<string, unknown>][] = [
  ['logging', 'logging/setLevel', { level: 'info' }],
  ['completions', 'completion/complete', { ref: { type: 'ref/prompt', name: 'mcpspec' }, argument: { name: 'a', value: '' } }],
  ['prompts', 'prompts/list', {}],
  ['resources', 'resources/list', {}],
  ['tools', 'tools/list', {}],
];

/** A method of each capability the server did not declare. */
export const undeclaredCapability = scenario<UndeclaredObs>({
  id: 'capabilities.undeclared',
  title: 'a method of each undeclared capability',
  versions: LEGACY,
  sharesSession: true,
  async run({ session }) {
    const gaps = GATED.filter(([cap]) => !(cap in session.capabilities));
    const probes: UndeclaredObs['probes'] = [];
    // One after the other on the shared session: each answer is the server's view of one capability.
    for (const [capability, method, params] of gaps) probes.push({ capability, method, exchange: await session.request(method, params) });
    return { probes };
  },
});
