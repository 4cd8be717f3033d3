// client.meta-*: the _meta a client under test puts on its requests: the protocol version and
// capabilities every 2026-07-28 request names (MT-01, VN-01), the client's name (MT-03), and the key
// grammar of every _meta key it sends (MT-10, MT-11, EX-02, judged as the server side's are in
// checks.ts beside it). Judged on the plain modern scripted server (lifecycle/client-scenarios.ts)
// and over every message of the run.

import { isObj } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { ev, judgedClientMessages, requestsOf, type Msg } from '../client/client-reading.js';
import { modernMetaOf } from '../client/scripted-server.js';
import { modernServer } from '../lifecycle/client-scenarios.js';
import { judgeMetaKeyNames } from './checks.js';

const metaRequired = check(modernServer, {
  id: 'client.meta-required',
  title: 'every request names its protocol version and client capabilities in params._meta',
  requirements: ['MT-01', 'VN-01'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.basic26,
  judge({ received }) {
    const reqs = requestsOf(received);
    if (reqs.length === 0) return untestable('the client sent no request to the modern server');
    const bad = reqs.filter((r) => {
      const meta = modernMetaOf((r.message as Msg).params);
      return !meta || meta[META_PROTOCOL_VERSION] !== '2026-07-28' || !isObj(meta[META_CLIENT_CAPABILITIES]);
    });
    if (bad.length) return violated(`${bad.length} of ${reqs.length} requests lack _meta protocolVersion 2026-07-28 or clientCapabilities; first: ${String((bad[0].message as Msg).method)}`, bad.slice(0, 3).map((r) => ev('request without the required _meta', r)));
    return holds(`${reqs.length} requests, each with protocolVersion and clientCapabilities in _meta`);
  },
});

const metaClientInfo = check(modernServer, {
  id: 'client.meta-client-info',
  title: 'every request names the client (io.modelcontextprotocol/clientInfo with name and version)',
  requirements: ['MT-03'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.basic26,
  judge({ received }) {
    const reqs = requestsOf(received).filter((r) => modernMetaOf((r.message as Msg).params));
    if (reqs.length === 0) return untestable('the client sent no modern request');
    const bad = reqs.filter((r) => {
      const info = modernMetaOf((r.message as Msg).params)![META_CLIENT_INFO];
      return !isObj(info) || typeof info.name !== 'string' || typeof info.version !== 'string';
    });
    if (bad.length) return violated(`${bad.length} of ${reqs.length} requests carry no clientInfo with name and version`, bad.slice(0, 3).map((r) => ev('request without clientInfo', r)));
    return holds(`${reqs.length} requests, each with clientInfo`);
  },
});

const metaKeyNames = oracle({
  id: 'client.meta-key-names',
  title: 'every _meta key the client sends follows the key grammar, and every extension it declares has a vendor prefix',
  requirements: ['MT-10', 'MT-11', 'EX-02'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge: (obs) => judgeMetaKeyNames(judgedClientMessages(obs), 'client'),
});

export const metaClientChecks = [metaRequired, metaClientInfo, metaKeyNames];
