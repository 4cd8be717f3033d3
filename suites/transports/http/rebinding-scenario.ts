// DNS rebinding, as a browser page on a hostile site would try it (HM-13): the page's host name is
// made to resolve to the server's address, so its request names the hostile host in both `Host` and
// `Origin`. A server that only compares Origin with Host (a "same-origin" test) lets it through; the
// Origin is foreign all the same. And the other way round: a request whose Origin is the server's own
// origin is a browser client on the same origin, to be served. Plain HTTP, no MCP session: the
// client's first request, once without Origin (does the endpoint serve mcpspec at all?), once as
// the rebinding page, once from the server's own origin.

import { endpointScenario } from '../../kit/scenario.js';
import { firstRequest } from '../../kit/first-request.js';
import type { PlainHttpResponse } from '../../ports/plain-http.js';
import { ALL_VERSIONS } from '../../../protocol/versions.js';

/** The hostile site the page comes from (a reserved name: it resolves nowhere). */
export const REBINDING_HOST = 'evil.mcpspec.invalid';

export interface RebindingObs {
  /** The first request as mcpspec sends it (no Origin). */
  plain: PlainHttpResponse;
  /** Host and Origin both the hostile site's. */
  rebinding?: PlainHttpResponse;
  /** Origin the endpoint's own origin (Host as usual). */
  sameOrigin?: PlainHttpResponse;
  /** The endpoint's origin, as sent in sameOrigin. */
  origin: string;
}

export const rebindingScenario = endpointScenario<RebindingObs>({
  id: 'http-rebinding',
  title: 'DNS rebinding: the first request without Origin, with Host and Origin both a hostile site\'s, and with the server\'s own origin',
  versions: ALL_VERSIONS,
  // Without credentials for a server that requires them there is no served request to compare with.
  needsAccess: true,
  async run(ctx) {
    const origin = new URL(ctx.endpoint).origin;
    const send = async (id: string, extra: Record<string, string>) => {
      const { body, headers } = firstRequest(ctx.version, id);
      const r = await ctx.http({ method: 'POST', body, headers: { ...headers, ...extra }, targetHeaders: true });
      // Served: a legacy server may have opened a session for it; end it.
      const session = r.status !== undefined && r.status < 300 ? r.headers['mcp-session-id'] : undefined;
      if (session !== undefined) await ctx.http({ method: 'DELETE', headers: { 'Mcp-Session-Id': session, ...extra }, targetHeaders: true });
      return r;
    };
    const plain = await send('mcpspec-rebinding-0', {});
    const obs: RebindingObs = { plain, origin };
    if (plain.status === undefined || plain.status >= 300) return obs; // nothing to compare with
    obs.rebinding = await send('mcpspec-rebinding-1', { Host: REBINDING_HOST, Origin: `http://${REBINDING_HOST}` });
    obs.sameOrigin = await send('mcpspec-rebinding-2', { Origin: origin });
    return obs;
  },
});
