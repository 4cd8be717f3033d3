// client.meta-*: the _meta a client under test puts on its requests: the protocol version and
// capabilities every 2026-07-28 request names (MT-01, VN-01), the client's name (MT-03), and the key
// grammar of every _meta key it sends (MT-10, MT-11, EX-02, judged as the server side's are in
// checks.ts beside it). Judged on the plain modern scripted server (lifecycle/client-scenarios.ts)
// and over every message of the run.

import { isObj } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import { check, oracle } from '../kit/check.js';
import { every } from '../kit/judge.js';
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
    return every(requestsOf(received), {
      none: 'the client sent no request to the modern server',
      offends: (r) => {
        const meta = modernMetaOf((r.message as Msg).params);
        return !meta || meta[META_PROTOCOL_VERSION] !== '2026-07-28' || !isObj(meta[META_CLIENT_CAPABILITIES]);
      },
      violated: (bad, reqs) => `${bad.length} of ${reqs.length} requests lack _meta protocolVersion 2026-07-28 or clientCapabilities; first: ${String((bad[0].message as Msg).method)}`,
      evidence: (r) => ev('request without the required _meta', r),
      holds: (reqs) => `${reqs.length} requests, each with protocolVersion and clientCapabilities in _meta`,
    });
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
    return every(requestsOf(received).filter((r) => modernMetaOf((r.message as Msg).params)), {
      none: 'the client sent no modern request',
      offends: (r) => {
        const info = modernMetaOf((r.message as Msg).params)![META_CLIENT_INFO];
        return !isObj(info) || typeof info.name !== 'string' || typeof info.version !== 'string';
      },
      violated: (bad, reqs) => `${bad.length} of ${reqs.length} requests carry no clientInfo with name and version`,
      evidence: (r) => ev('request without clientInfo', r),
      holds: (reqs) => `${reqs.length} requests, each with clientInfo`,
    });
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
