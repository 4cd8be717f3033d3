import { check, holds, MODERN, violated } from './check.js';
import { errorCode, errorOf, evidence, isObj, outcome, resultOf } from './exchange.js';
import { BOGUS_VERSION } from './lifecycle.js';
import { scenario, type ScenarioContext } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange, Session } from '../runner/session-types.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../runner/versions.js';

const META = {
  [META_PROTOCOL_VERSION]: '2026-07-28',
  [META_CLIENT_CAPABILITIES]: {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcpspec', version: '0.1.0' },
};

/** A request naming an unsupported version; on HTTP the header names it too, so only the version is wrong. */
function withBogusVersion(session: Session, method: string, ctx: ScenarioContext): Promise<Exchange> {
  return ctx.deliberate(session.request(method, {}, { metaOverrides: { [META_PROTOCOL_VERSION]: BOGUS_VERSION }, headers: { 'MCP-Protocol-Version': BOGUS_VERSION } }));
}

/** The method to probe besides discover: a list the server declared, else discover again. */
function secondMethod(session: Session): string {
  for (const [cap, method] of [['tools', 'tools/list'], ['prompts', 'prompts/list'], ['resources', 'resources/list']]) {
    if (cap in session.capabilities) return method;
  }
  return 'server/discover';
}

/** Judges a -32022 answer: code, data.supported, data.requested, HTTP 400. */
function unsupportedVersionProblem(ex: Exchange): string | undefined {
  const err = errorOf(ex);
  if (!err) return `got ${outcome(ex)}`;
  if (err.code !== -32022) return `got error ${String(err.code)}, not -32022`;
  const data = err.data;
  if (!isObj(data) || !Array.isArray(data.supported) || !data.supported.every((v) => typeof v === 'string')) return 'error.data.supported is not a list of versions';
  if (data.requested !== BOGUS_VERSION) return `error.data.requested is ${JSON.stringify(data.requested)}, not "${BOGUS_VERSION}"`;
  if (ex.http && ex.http.status !== 400) return `HTTP status ${ex.http.status}, not 400`;
  return undefined;
}

interface FirstObs {
  first: Exchange;
}

/** The very first message on a fresh connection names an unsupported version. */
export const versionFirstRequest = scenario<FirstObs>({
  id: 'version.first-request',
  title: 'an unsupported version on the first request of a connection',
  versions: MODERN,
  async run({ openRaw, options }) {
    const target = await openRaw();
    const msg = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { ...META, [META_PROTOCOL_VERSION]: BOGUS_VERSION } } };
    const headers = { 'MCP-Protocol-Version': BOGUS_VERSION, 'Mcp-Method': 'server/discover' };
    return { first: await target.send(msg, { expectId: 1, timeoutMs: options.timeoutMs, headers }) };
  },
  checks: [
    check<FirstObs>({
      id: 'version.unsupported',
      title: 'a request in an unsupported version gets -32022 with data.supported and data.requested',
      requirements: ['VN-02'],
      level: 'MUST',
      versions: MODERN,
      spec: SPEC.versioning26,
      judge({ first }) {
        const problem = unsupportedVersionProblem(first);
        if (problem) return violated(`server/discover in version ${BOGUS_VERSION}: ${problem}`, [evidence('server/discover', first, { expected: { code: -32022, data: { supported: ['…'], requested: BOGUS_VERSION } } })]);
        return holds(`-32022, supported ${JSON.stringify((errorOf(first)!.data as { supported: unknown }).supported)}`);
      },
    }),
  ],
});

interface DiscoverObs {
  discover: Exchange;
  version: string;
  laterBogus: Exchange[];
  missingVersion: Exchange;
  missingCapabilities: Exchange;
  missingMeta: Exchange;
}

export const discoverScenario = scenario<DiscoverObs>({
  id: 'discover',
  title: 'server/discover, then unsupported versions and missing _meta keys on the same connection',
  versions: MODERN,
  async run(ctx) {
    const { session } = ctx;
    await session.request(secondMethod(session)); // a good request first: state must not carry over
    const laterBogus = [await withBogusVersion(session, 'server/discover', ctx), await withBogusVersion(session, secondMethod(session), ctx)];
    const missingVersion = await ctx.deliberate(session.request('server/discover', {}, { metaOverrides: { [META_PROTOCOL_VERSION]: undefined } }));
    const missingCapabilities = await ctx.deliberate(session.request('server/discover', {}, { metaOverrides: { [META_CLIENT_CAPABILITIES]: undefined } }));
    const missingMeta = await ctx.deliberate(session.request(secondMethod(session), {}, { meta: 'none' }));
    return { discover: session.handshake, version: session.version, laterBogus, missingVersion, missingCapabilities, missingMeta };
  },
  checks: [
    check<DiscoverObs>({
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
    check<DiscoverObs>({
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
    check<DiscoverObs>({
      id: 'version.unsupported-every-request',
      title: 'an unsupported version gets -32022 on every request, not only the first of a connection',
      requirements: ['VN-02', 'VN-08'],
      level: 'MUST',
      versions: MODERN,
      spec: SPEC.basic26,
      judge({ laterBogus }) {
        const bad = laterBogus.map((ex) => [ex, unsupportedVersionProblem(ex)] as const).filter(([, p]) => p);
        if (bad.length) {
          return violated(`after a good request on the same connection, ${bad.map(([ex, p]) => `${ex.method}: ${p}`).join('; ')}`, bad.map(([ex]) => evidence(ex.method ?? 'request', ex, { expected: { code: -32022 } })));
        }
        return holds(`${laterBogus.map((e) => e.method).join(' and ')} in ${BOGUS_VERSION} got -32022 after a good request`);
      },
    }),
    check<DiscoverObs>({
      id: 'meta.required-keys',
      title: 'a request missing a required _meta key gets -32602',
      requirements: ['MT-01', 'MT-02'],
      level: 'MUST',
      versions: MODERN,
      spec: SPEC.basic26,
      judge({ missingVersion, missingCapabilities, missingMeta }, ctx) {
        const problems: string[] = [];
        const ev = [];
        // Without protocolVersion in _meta an HTTP body also disagrees with its header: -32020 is fair there.
        const okForVersion = ctx.transport === 'http' ? [-32602, -32020] : [-32602];
        if (!okForVersion.includes(errorCode(missingVersion) ?? 0)) {
          problems.push(`without protocolVersion: ${outcome(missingVersion)}`);
          ev.push(evidence('no protocolVersion', missingVersion, { expected: { code: -32602 } }));
        }
        if (errorCode(missingMeta) !== -32602 && !(ctx.transport === 'http' && errorCode(missingMeta) === -32020)) {
          problems.push(`${missingMeta.method} with no _meta at all: ${outcome(missingMeta)}`);
          ev.push(evidence('no _meta', missingMeta, { expected: { code: -32602 } }));
        }
        if (errorCode(missingCapabilities) !== -32602) {
          problems.push(`without clientCapabilities: ${outcome(missingCapabilities)}`);
          ev.push(evidence('no clientCapabilities', missingCapabilities, { expected: { code: -32602 } }));
        }
        for (const ex of [missingVersion, missingCapabilities, missingMeta]) {
          if (ex.http && errorCode(ex) !== undefined && ex.http.status !== 400) {
            problems.push(`HTTP status ${ex.http.status}, not 400`);
            ev.push(evidence('status', ex, { expected: 'HTTP 400' }));
          }
        }
        if (problems.length) return violated(problems.join('; '), ev);
        return holds('no protocolVersion, no clientCapabilities and no _meta were all refused with -32602');
      },
    }),
  ],
});
