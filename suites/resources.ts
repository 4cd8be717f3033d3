import { ALL_VERSIONS, check, holds, LEGACY, MODERN, skip, untestable, violated } from './check.js';
import { evidence, expectErrorCode, isObj, listAll, outcome, resultOf } from './exchange.js';
import { scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange } from '../runner/session-types.js';

interface Read {
  uri: string;
  exchange: Exchange;
}

interface ResourcesObs {
  declared: boolean;
  reads: Read[];
  unknown?: Exchange;
}

export const UNKNOWN_URI = 'mcpspec-test://no-such-resource/8f3c';

export const resourcesScenario = scenario<ResourcesObs>({
  id: 'resources',
  title: 'resources/list, reading listed resources, an unknown uri',
  versions: ALL_VERSIONS,
  async run({ session }) {
    const declared = 'resources' in session.capabilities;
    if (!declared) return { declared, reads: [] };
    const listed = await listAll((cursor) => session.request('resources/list', cursor === undefined ? {} : { cursor }), 'resources');
    const reads: Read[] = [];
    for (const r of listed.items.slice(0, 5)) {
      if (typeof r.uri !== 'string') continue;
      reads.push({ uri: r.uri, exchange: await session.request('resources/read', { uri: r.uri }) });
    }
    const unknown = await session.request('resources/read', { uri: UNKNOWN_URI });
    return { declared, reads, unknown };
  },
  checks: [
    check<ResourcesObs>({
      id: 'resources.read',
      title: 'each listed resource reads back, with contents for the uri asked',
      requirements: ['R26'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.resources26,
      judge({ declared, reads }) {
        if (!declared) return skip('the server does not declare resources');
        if (reads.length === 0) return untestable('resources/list returned no resources');
        const bad = reads.filter((r) => {
          const contents = resultOf(r.exchange)?.contents;
          return !Array.isArray(contents) || !contents.some((c) => isObj(c) && c.uri === r.uri);
        });
        if (bad.length) {
          return violated(`${bad.length} of ${reads.length} reads did not return contents for the uri asked; first: ${bad[0].uri} -> ${outcome(bad[0].exchange)}`, bad.slice(0, 3).map((r) => evidence(`resources/read ${r.uri}`, r.exchange, { pointer: '/result/contents', expected: `an item with uri ${r.uri}` })));
        }
        return holds(`${reads.length} resources read back`);
      },
    }),
    check<ResourcesObs>({
      id: 'resources.unknown-modern',
      title: 'reading an unknown uri gets -32602, never empty contents',
      requirements: ['RS-01'],
      level: 'MUST',
      versions: MODERN,
      spec: SPEC.resources26,
      judge({ declared, unknown }) {
        if (!declared || !unknown) return skip('the server does not declare resources');
        return expectErrorCode(unknown, -32602, `resources/read ${UNKNOWN_URI}`);
      },
    }),
    check<ResourcesObs>({
      id: 'resources.unknown-legacy',
      title: 'reading an unknown uri gets -32002 (resource not found)',
      requirements: ['RS-02'],
      level: 'SHOULD',
      versions: LEGACY,
      spec: SPEC.resources25,
      judge({ declared, unknown }) {
        if (!declared || !unknown) return skip('the server does not declare resources');
        return expectErrorCode(unknown, -32002, `resources/read ${UNKNOWN_URI}`);
      },
    }),
  ],
});
