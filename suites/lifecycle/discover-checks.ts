// discover.*: server/discover (D26).

import { META_SERVER_INFO } from '../../protocol/meta.js';
import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import { check, holds, violated } from '../kit/check.js';
import { evidence, isObj, outcome, resultOf } from '../kit/exchange.js';
import { discoverScenario } from './discover-scenario.js';

export const discoverChecks = [
  check(discoverScenario, {
    id: 'discover.result',
    title: 'server/discover answers with supportedVersions that include the version it serves',
    requirements: ['VN-04', 'VN-06'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.discover26,
    judge({ discover, version }) {
      const r = resultOf(discover);
      if (!r) return violated(`server/discover got ${outcome(discover)}`, [evidence('server/discover', discover)]);
      if (!Array.isArray(r.supportedVersions) || !r.supportedVersions.includes(version)) {
        return violated(`supportedVersions ${JSON.stringify(r.supportedVersions)} lacks ${version}, the version the server just answered in`, [evidence('server/discover', discover, { pointer: '/result/supportedVersions', expected: `contains "${version}"` })]);
      }
      if (!isObj(r.capabilities)) return violated('capabilities is not an object', [evidence('server/discover', discover, { pointer: '/result/capabilities' })]);
      return holds(`supportedVersions ${JSON.stringify(r.supportedVersions)}`);
    },
  }),
  check(discoverScenario, {
    id: 'discover.server-info',
    title: 'server/discover names the server in _meta serverInfo',
    requirements: ['MT-06', 'VN-06'],
    level: 'SHOULD',
    versions: MODERN,
    spec: SPEC.discover26,
    judge({ discover }) {
      const meta = resultOf(discover)?._meta;
      const info = isObj(meta) ? meta[META_SERVER_INFO] : undefined;
      if (isObj(info) && typeof info.name === 'string') return holds(`serverInfo ${String(info.name)} ${String(info.version)}`);
      return violated('server/discover result has no _meta["io.modelcontextprotocol/serverInfo"]', [evidence('server/discover', discover, { pointer: `/result/_meta/${META_SERVER_INFO.replace('/', '~1')}` })]);
    },
  }),
];
