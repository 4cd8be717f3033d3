import { ALL_VERSIONS } from '../../protocol/versions.js';
import { listAll } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

export interface Read {
  uri: string;
  exchange: Exchange;
}

export interface ResourcesObs {
  reads: Read[];
  unknown: Exchange;
}

export const UNKNOWN_URI = 'mcpspec-test://no-such-resource/8f3c';

export const resourcesScenario = scenario<ResourcesObs>({
  id: 'resources',
  title: 'resources/list, reading listed resources, an unknown uri',
  versions: ALL_VERSIONS,
  sharesSession: true,
  async run({ session }) {
    const listed = await listAll((cursor) => session.request('resources/list', cursor === undefined ? {} : { cursor }), 'resources');
    const uris = listed.items.slice(0, 5).map((r) => r.uri).filter((u): u is string => typeof u === 'string');
    const [reads, unknown] = await Promise.all([
      Promise.all(uris.map(async (uri) => ({ uri, exchange: await session.request('resources/read', { uri }) }))),
      session.request('resources/read', { uri: UNKNOWN_URI }),
    ]);
    return { reads, unknown };
  },
});
