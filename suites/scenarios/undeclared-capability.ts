import { LEGACY } from '../../protocol/versions.js';
import type { Exchange } from '../ports.js';
import { scenario } from '../scenario.js';

export interface UndeclaredObs {
  probe?: { capability: string; method: string; exchange: Exchange };
}

/** Methods of server capabilities, with harmless params. */
export const GATED: [string, string, Record<string, unknown>][] = [
  ['logging', 'logging/setLevel', { level: 'info' }],
  ['completions', 'completion/complete', { ref: { type: 'ref/prompt', name: 'mcpspec' }, argument: { name: 'a', value: '' } }],
  ['prompts', 'prompts/list', {}],
  ['resources', 'resources/list', {}],
  ['tools', 'tools/list', {}],
];

/** A method of a capability the server did not declare. */
export const undeclaredCapability = scenario<UndeclaredObs>({
  id: 'capabilities.undeclared',
  title: 'a method of an undeclared capability',
  versions: LEGACY,
  sharesSession: true,
  async run({ session }) {
    const gap = GATED.find(([cap]) => !(cap in session.capabilities));
    if (!gap) return {};
    const [capability, method, params] = gap;
    return { probe: { capability, method, exchange: await session.request(method, params) } };
  },
});
