// The official MCP conformance suite (@modelcontextprotocol/conformance), as data: every server and
// client scenario it runs, the checks each one reports, and for each check the mcpspec checks that
// judge the same rule. It lets `--expected-failures` read that suite's baseline file. Facts only
// (scenario names and check ids as the suite prints them); the judgement of each pairing is
// mcpspec's own, after /work/shared/coverage/official-suite-map.md, brought up to date with the checks
// mcpspec gained since (http.session-id-visible, meta.client-info-optional, client.mrtr-no-invented-state, ...).

/** The release the scenario and check names were read from. */
export const OFFICIAL_SUITE_VERSION = '0.2.0-alpha.12';

/**
 * How well the mcpspec checks judge an official check's rule. covered: the same rule (or stricter);
 * partial: part of it, more loosely, or only when the target happens to show it; none: no mcpspec
 * check judges it; harness: a set-up, gate or INFO check of the official suite, not a rule.
 */
export type Fit = 'covered' | 'partial' | 'none' | 'harness';

export interface Counterpart {
  fit: Fit;
  /** mcpspec check ids; empty for none and harness. */
  checks: readonly string[];
}

export interface OfficialScenario {
  /** Every check id the scenario reports (a repeated id is one entry), with its counterpart. */
  checks: Readonly<Record<string, Counterpart>>;
  /** What the scenario judges as a whole beyond its named checks (a discovery path it forces). */
  whole?: Counterpart;
}

export type OfficialRole = 'server' | 'client';

const covered = (...checks: string[]): Counterpart => ({ fit: 'covered', checks });
const partial = (...checks: string[]): Counterpart => ({ fit: 'partial', checks });
const NONE: Counterpart = { fit: 'none', checks: [] };
const HARNESS: Counterpart = { fit: 'harness', checks: [] };

/** The same counterpart for several check ids. */
function each(ids: string[], c: Counterpart): Record<string, Counterpart> {
  return Object.fromEntries(ids.map((id) => [id, c]));
}

/**
 * Checks the official suite adds to every scenario. A whole-scenario entry does not bring these in:
 * mcpspec's schema oracles judge every message of the run, so excusing them for each baselined
 * scenario would hide unrelated schema failures. Named on their own (`ping:wire-schema-valid`) they map.
 */
export const CROSS_CUTTING: Readonly<Record<OfficialRole, Readonly<Record<string, Counterpart>>>> = {
  server: { 'wire-schema-valid': covered('wire.schema', 'asks.schema', 'tasks.schema'), 'wire-schema-harness-error': HARNESS, 'scenario-timeout': HARNESS },
  client: { 'wire-schema-valid': covered('client.schema'), 'wire-schema-harness-error': HARNESS, 'scenario-timeout': HARNESS },
};

// The server's answers to an input_required flow: the first round's shape, then the retry served.
const mrtr = (prefix: string): Record<string, Counterpart> => ({ [`sep-2322-${prefix}-incomplete`]: partial('mrtr.shape'), [`sep-2322-${prefix}-complete`]: covered('mrtr.retry-served') });

const SERVER: Record<string, OfficialScenario> = {
  'server-initialize': { checks: { 'server-initialize': covered('lifecycle.initialize-result'), 'server-session-id-visible-ascii': covered('http.session-id-visible') } },
  'server-session-lifecycle': {
    checks: {
      // mcpspec judges the 202 of another notification, and only the 404 after a DELETE.
      'server-session-initialized-accepted': partial('http.notification-202'),
      'server-session-delete-accepted': partial('http.unknown-session'),
      'server-session-terminated-returns-404': covered('http.unknown-session'),
      ...each(['server-session-lifecycle-error', 'server-session-lifecycle-skipped'], HARNESS),
    },
  },
  'server-stateless': {
    checks: {
      ...each(['sep-2575-request-meta-invalid-missing-meta', 'sep-2575-request-meta-invalid-missing-protocol-version', 'sep-2575-request-meta-invalid-missing-client-capabilities', 'sep-2575-http-server-meta-invalid-400'], covered('meta.required-keys')),
      // A SHOULD in mcpspec, a MUST there.
      'sep-2575-request-meta-client-info-optional': partial('meta.client-info-optional'),
      'sep-2575-server-implements-discover': covered('discover.result'),
      'sep-2575-server-identifies-in-result-meta': covered('discover.server-info', 'meta.server-info'),
      'sep-2575-server-declares-prompts-in-discover': partial('capabilities.undeclared-method', 'capabilities.declared-served'),
      'sep-2575-discover-capabilities-match-handlers': partial('capabilities.undeclared-method', 'capabilities.declared-served'),
      'sep-2575-server-unsupported-version-error': covered('version.unsupported', 'version.unsupported-every-request'),
      'sep-2575-http-server-unsupported-version-400': covered('version.unsupported'),
      'sep-2575-http-server-header-mismatch-400': covered('http.header-mismatch'),
      'sep-2575-server-rejects-undeclared-capability': covered('mrtr.declared-capabilities', 'meta.capability-error'),
      'sep-2575-missing-capability-http-400': covered('meta.capability-error'),
      // The methods 2026-07-28 removed, called the modern way: mcpspec probes only an invented method.
      ...each(['initialize', 'ping', 'logging-setlevel', 'resources-subscribe', 'resources-unsubscribe'].map((m) => `sep-2575-http-server-method-not-found-404-${m}`), NONE),
      'sep-2575-http-server-method-not-found-404': covered('http.unknown-method-404', 'jsonrpc.method-not-found'),
      'sep-2575-http-server-no-independent-requests-on-stream': covered('wire.direction'),
      'sep-2575-server-no-log-without-loglevel': covered('logging.per-request'),
      'sep-2575-server-sends-subscription-ack': covered('subscriptions.ack'),
      'sep-2575-server-tags-subscription-id': covered('subscriptions.ids'),
      'sep-2575-server-honors-notification-filter': covered('subscriptions.requested-only'),
      'sep-2575-server-sends-prompts-list-changed-on-subscription': NONE,
      'sep-2575-server-sends-tools-list-changed-on-subscription': covered('lists.tools-changed'),
      'sep-2575-http-server-error-jsonrpc-id': covered('jsonrpc.id-echo'),
    },
  },
  'logging-set-level': { checks: { 'logging-set-level': covered('logging.set-level') } },
  ping: { checks: { ping: covered('lifecycle.ping') } },
  // mcpspec asks completion/complete for a known argument only in `mcpspec fuzz`.
  'completion-complete': { checks: { 'completion-complete': NONE } },
  'tools-list': { checks: { 'tools-list': partial('wire.schema', 'tools.input-schema'), 'tools-name-format': covered('tools.names'), 'tools-list-deterministic-order': covered('caching.tools-order') } },
  // The tools-call-* and prompts-get-* checks call named tools of the official fixture server;
  // mcpspec judges whatever any tool or prompt returns, mostly through the schema.
  'tools-call-simple-text': { checks: { 'tools-call-simple-text': partial('tools.call-valid-args', 'wire.schema') } },
  'tools-call-image': { checks: { 'tools-call-image': partial('wire.schema') } },
  'tools-call-audio': { checks: { 'tools-call-audio': partial('wire.schema') } },
  'tools-call-embedded-resource': { checks: { 'tools-call-embedded-resource': partial('wire.schema') } },
  'tools-call-mixed-content': { checks: { 'tools-call-mixed-content': partial('wire.schema') } },
  'tools-call-with-logging': { checks: { 'tools-call-with-logging': partial('logging.set-level-filter') } },
  'tools-call-error': { checks: { 'tools-call-error': partial('tools.invalid-args-rejected', 'tools.invalid-args-as-result') } },
  'tools-call-with-progress': { checks: { 'tools-call-with-progress': covered('progress.notifications') } },
  'tools-call-sampling': { checks: { 'tools-call-sampling': partial('asks.answered', 'asks.schema', 'asks.declared') } },
  'tools-call-elicitation': { checks: { 'tools-call-elicitation': partial('asks.answered', 'asks.schema', 'asks.declared') } },
  'json-schema-2020-12': {
    checks: {
      ...each(['json-schema-2020-12-$schema', 'json-schema-2020-12-$defs', 'json-schema-2020-12-additionalProperties', 'sep-2106-composition-keywords-preserved', 'sep-2106-conditional-keywords-preserved', 'sep-2106-anchor-keyword-preserved'], NONE),
      ...each(['json-schema-2020-12-tool-found', 'json-schema-2020-12-error'], HARNESS),
    },
  },
  'elicitation-sep1034-defaults': {
    checks: {
      'elicitation-sep1034-general': partial('asks.schema', 'asks.answered'),
      ...each(['string', 'integer', 'number', 'enum', 'boolean'].map((t) => `elicitation-sep1034-${t}-default`), partial('asks.schema')),
    },
  },
  'server-sse-polling': {
    checks: {
      'server-sse-priming-event': covered('http.sse-priming'),
      'server-sse-retry-field': covered('http.sse-retry'),
      'server-sse-disconnect-resume': partial('http.resume-own-stream'),
      ...each(['server-sse-polling-session', 'server-sse-test-reconnection-tool', 'server-sse-post-request', 'server-sse-content-type', 'server-sse-polling-stream', 'stream-closed', 'incoming-sse-event', 'server-sse-polling-error'], HARNESS),
    },
  },
  // mcpspec sends concurrent requests in every run, but no check judges that they were all accepted.
  'server-sse-multiple-streams': {
    checks: { ...each(['server-accepts-multiple-post-streams', 'server-sse-streams-functional'], NONE), ...each(['server-sse-multiple-streams-session', 'server-sse-multiple-streams-error'], HARNESS) },
  },
  'elicitation-sep1330-enums': {
    checks: {
      ...each(['general', 'untitled-single', 'titled-single', 'legacy-enumnames', 'untitled-multi', 'titled-multi'].map((s) => `elicitation-sep1330-${s}`), partial('asks.schema')),
      ...each(['outgoing-request', 'incoming-response'], HARNESS),
    },
  },
  'resources-list': { checks: { 'resources-list': covered('wire.schema') } },
  'resources-read-text': { checks: { 'resources-read-text': partial('resources.read', 'wire.schema') } },
  'resources-read-binary': { checks: { 'resources-read-binary': partial('resources.read', 'wire.schema') } },
  'resources-templates-read': { checks: { 'resources-templates-read': NONE } },
  'resources-subscribe': { checks: { 'resources-subscribe': covered('subscriptions.resources-legacy') } },
  'resources-unsubscribe': { checks: { 'resources-unsubscribe': covered('subscriptions.resources-legacy') } },
  'sep-2164-resource-not-found': { checks: { 'sep-2164-no-empty-contents': covered('resources.unknown-modern'), 'sep-2164-error-code': covered('resources.unknown-modern'), 'sep-2164-data-uri': covered('resources.unknown-data-uri') } },
  // The skills extension (SEP-2640): suites/skills/. The resources/list metadata of SKILL.md and the
  // _meta key prefix are not judged (a listing of SKILL.md is optional; the fixture lists none).
  'sep-2640-skills-directory': {
    checks: {
      'sep-2640-capability-directory-read-flag': HARNESS,
      ...each(['directory-read-method-registered', 'directory-read-result-resources-shape', 'directory-read-subdir-mimetype', 'directory-read-pagination', 'directory-read-invalid-params'].map((s) => `sep-2640-${s}`), covered('skills.directory-read')),
    },
  },
  'sep-2640-skills-enumeration': {
    checks: {
      ...each(['capability-commits-to-methods', 'capability-declaration-inline', 'capability-empty-object', 'capability-requires-resources', 'skills-list-implemented', 'skills-list-cache-attributes', 'skills-get-implemented', 'skills-get-cache-attributes'].map((s) => `sep-2640-${s}`), covered('skills.declared-served')),
      ...each(
        [
          'skills-list-pagination', 'skills-list-entry-atomic', 'entry-uri-required', 'entry-uri-matches-frontmatter-name', 'entry-frontmatter-required', 'entry-resources-required',
          'resources-complete', 'resources-digest-format', 'resources-size-required', 'resources-uri-within-skill', 'name-naming-rules',
        ].map((s) => `sep-2640-${s}`),
        covered('skills.entry-shape'),
      ),
      ...each(['skill-uri-scheme', 'limit-resources-per-skill', 'limit-total-size', 'authority-reg-name', 'names-should-be-unique', 'metadata-reserved-prefix'].map((s) => `sep-2640-${s}`), covered('skills.conventions')),
      ...each(['skillmd-required', 'skillmd-frontmatter', 'entry-frontmatter-identical'].map((s) => `sep-2640-${s}`), covered('skills.manifest')),
      ...each(['skills-get-entry-shape', 'skills-get-no-cursor', 'skills-get-unknown-uri-invalid-params'].map((s) => `sep-2640-${s}`), covered('skills.get')),
    },
  },
  'sep-2640-skills-manifest': {
    checks: {
      'sep-2640-skillmd-mimetype': covered('skills.conventions'),
      'sep-2640-final-segment-equals-name': covered('skills.manifest'),
      ...each(['skillmd-metadata-name', 'skillmd-metadata-description', 'meta-prefix'].map((s) => `sep-2640-${s}`), NONE),
    },
  },
  'prompts-list': { checks: { 'prompts-list': partial('wire.schema') } },
  'prompts-get-simple': { checks: { 'prompts-get-simple': partial('prompts.get', 'wire.schema') } },
  'prompts-get-with-args': { checks: { 'prompts-get-with-args': partial('prompts.get') } },
  'prompts-get-embedded-resource': { checks: { 'prompts-get-embedded-resource': partial('wire.schema') } },
  'prompts-get-with-image': { checks: { 'prompts-get-with-image': partial('wire.schema') } },
  // mcpspec sends a foreign Origin (never a foreign Host), and never its own Origin.
  // The official suite takes any 4xx for the rebinding request; mcpspec asks 403 (HM-13) except in
  // 2025-06-18. It wants the own-origin request served (MUST); mcpspec warns (the spec's sentence is on invalid Origins).
  'dns-rebinding-protection': { checks: { 'localhost-host-rebinding-rejected': covered('http.origin-rebinding', 'http.origin'), 'localhost-host-valid-accepted': partial('http.origin-same') } },
  caching: {
    checks: {
      ...each(['tools-list', 'prompts-list', 'resources-list', 'resources-templates-list', 'resources-read'].map((m) => `sep-2549-${m}-caching-hints`), covered('caching.fields')),
      'sep-2549-ttl-non-negative': covered('caching.fields'),
      'sep-2549-cache-scope-valid': covered('caching.fields'),
      'sep-2549-caching-connection': HARNESS,
    },
  },
  'http-header-validation': {
    checks: {
      // One id for several probes: a mismatched Mcp-Method is judged, missing headers are not.
      'sep-2243-server-reject-invalid-headers': partial('http.header-mismatch'),
      'sep-2243-server-reject-error-code': partial('http.header-mismatch'),
      'sep-2243-server-accepts-whitespace-header-value': NONE,
      'sep-2243-header-name-case-insensitive': NONE, // odd-case header names only in `mcpspec fuzz`
      'sep-2243-server-standard-setup': HARNESS,
    },
  },
  'http-custom-header-server-validation': {
    checks: {
      'sep-2243-server-decode-base64': covered('http.param-headers'),
      'sep-2243-server-reject-invalid-param-chars': partial('http.param-headers'),
      'sep-2243-server-validate-param-match': partial('http.param-headers'),
      'sep-2243-server-reject-param-mismatch': covered('http.param-headers'),
      ...each(['sep-2243-server-custom-setup', 'sep-2243-server-no-xmcp-tool', 'sep-2243-server-no-string-param'], HARNESS),
    },
  },
  'tasks-lifecycle': {
    checks: {
      'tasks-sync-tool-call': partial('wire.result-type'),
      'sep-2663-result-type-task-on-create': covered('tasks.modern-create'),
      ...each(['working', 'completed', 'failed'].map((s) => `sep-2663-tasks-get-status-${s}`), covered('tasks.modern-get')),
      'sep-2663-tool-error-uses-completed-status': covered('tasks.modern-is-error'),
      'sep-2663-cancel-ack-empty-result': covered('tasks.modern-acks', 'tasks.transitions'),
      'tasks-cancel-terminal-idempotent-ack': partial('tasks.modern-acks'),
      'tasks-lifecycle-bootstrap': HARNESS,
    },
  },
  'tasks-capability-negotiation': {
    checks: {
      'tasks-extension-advertised': partial('tasks.modern-create'),
      'sep-2663-tasks-methods-non-declaring': partial('tasks.modern-get-undeclared'), // tasks/get only, not update or cancel
      'sep-2663-server-rejects-undeclared-client': covered('tasks.modern-undeclared'),
      'tasks-per-request-meta-opt-in': covered('tasks.modern-create'),
      'tasks-capability-bootstrap': HARNESS,
    },
  },
  'tasks-wire-fields': {
    checks: { 'tasks-wire-field-renames': covered('tasks.modern-create'), 'tasks-no-early-ttl-expiry': covered('tasks.modern-kept-for-ttl'), 'tasks-no-related-task-meta-on-inlined-result': NONE, 'tasks-wire-fields-bootstrap': HARNESS },
  },
  'tasks-request-state-removal': {
    checks: {
      'tasks-create-result-no-request-state': partial('tasks.modern-create'),
      'tasks-get-detailed-no-request-state': partial('tasks.modern-get'),
      ...each(['tasks-request-state-bootstrap', 'tasks-request-state-removal-setup'], HARNESS),
    },
  },
  'tasks-mrtr-input': {
    checks: { 'sep-2663-tasks-get-status-input-required': covered('tasks.modern-get'), 'tasks-mrtr-tasks-update-resumes': partial('tasks.modern-acks'), 'tasks-mrtr-partial-fulfillment': NONE, 'tasks-mrtr-input-bootstrap': HARNESS },
  },
  'tasks-request-headers': {
    checks: {
      ...each(['tasks-headers-tolerate-mcp-method-on-tools-call', 'sep-2663-routing-headers-accepted-on-tasks-get'], NONE),
      'tasks-headers-reject-mismatched-method': covered('http.header-mismatch'),
      'sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get': partial('http.header-mismatch'),
      'tasks-headers-bootstrap': HARNESS,
    },
  },
  'tasks-dispatch-and-envelope': {
    checks: {
      ...each(['sep-2663-tasks-result-removed-method-not-found', 'tasks-removed-tasks-list', 'sep-2663-legacy-task-param-ignored'], NONE),
      'tasks-server-directed-creation-no-hint': partial('tasks.modern-create'),
      'tasks-result-type-complete-on-non-task-responses': covered('wire.result-type', 'tasks.modern-get', 'tasks.modern-acks'),
      'sep-2663-durable-create-strong-consistency': covered('tasks.modern-create'),
      'sep-2663-tasks-get-invalid-task-id-32602': covered('tasks.modern-unknown-id'),
      ...each(['tasks-dispatch-bootstrap', 'tasks-immediate-result-shortcut'], HARNESS),
    },
  },
  // Its one check is an always-skipped placeholder; the rule it stands for is tasks.modern-notify's.
  'tasks-status-notifications': { checks: { 'tasks-status-notifications': HARNESS }, whole: partial('tasks.modern-notify') },
  'tasks-required-task-error': {
    checks: {
      'sep-2663-server-returns-missing-capability-when-required': partial('tasks.modern-undeclared'),
      'sep-2663-server-returns-missing-capability-data-shape': covered('tasks.modern-undeclared', 'meta.capability-error'),
      'tasks-required-error-bootstrap': HARNESS,
    },
  },
  'tasks-mrtr-composition': { checks: { 'sep-2663-mrtr-synchronous-before-task-creation': NONE } },
  'input-required-result-basic-elicitation': { checks: mrtr('elicitation') },
  'input-required-result-basic-sampling': { checks: mrtr('sampling') },
  'input-required-result-basic-list-roots': { checks: mrtr('list-roots') },
  'input-required-result-request-state': { checks: { ...mrtr('request-state'), 'sep-2322-request-state-incomplete': partial('mrtr.shape', 'wire.schema') } },
  'input-required-result-multiple-input-requests': { checks: mrtr('multiple-inputs') },
  'input-required-result-multi-round': {
    // mcpspec accepts a second round without requiring its requestState to change.
    checks: { 'sep-2322-multi-round-r1': partial('mrtr.shape'), 'sep-2322-multi-round-r2': partial('mrtr.retry-served'), 'sep-2322-multi-round-r3': covered('mrtr.retry-served') },
  },
  'input-required-result-missing-input-response': { checks: { 'sep-2322-missing-response-rerequests': covered('mrtr.missing-response') } },
  'input-required-result-non-tool-request': { checks: mrtr('non-tool') },
  'input-required-result-result-type': { checks: { 'sep-2322-result-type-included': covered('wire.result-type') } },
  'input-required-result-unsupported-methods': { checks: { 'sep-2322-not-on-unsupported-requests': covered('wire.result-type') } },
  // mcpspec: a SHOULD, and a restarted flow passes too.
  'input-required-result-tampered-state': { checks: { 'sep-2322-reject-tampered-state': partial('mrtr.tampered-state') } },
  'input-required-result-capability-check': { checks: { 'sep-2322-respect-client-capabilities': covered('mrtr.declared-capabilities') } },
  'input-required-result-ignore-extra-params': { checks: { 'sep-2322-ignore-unexpected-params': covered('mrtr.extra-responses-ignored') } },
  'input-required-result-validate-input': { checks: { 'sep-2322-validate-input-responses': covered('mrtr.malformed-responses'), 'sep-2322-error-on-protocol-error': partial('mrtr.malformed-responses') } },
};

// The checks every OAuth flow scenario reports: the flow's steps reached, PKCE, the registration's
// application_type, the bearer token. mcpspec reports a client that never authorizes as untestable.
const FLOW: Record<string, Counterpart> = {
  ...each(['client-registration', 'authorization-request', 'token-request'], partial('auth.client-pkce', 'auth.client-resource')),
  ...each(['pkce-code-challenge-sent', 'pkce-s256-method-used', 'pkce-code-verifier-sent', 'pkce-verifier-matches-challenge'], covered('auth.client-pkce')),
  'sep-837-application-type-present': covered('auth.client-application-type'),
  ...each(['valid-bearer-token', 'invalid-bearer-token'], covered('auth.client-bearer')),
};

// RFC 8707 resource checks of the metadata and token-endpoint-auth scenarios. mcpspec compares
// URL-normalised values, the official suite the exact string.
const RESOURCE: Record<string, Counterpart> = {
  ...each(['resource-parameter-in-authorization', 'resource-parameter-in-token', 'resource-parameter-valid-uri', 'resource-parameter-consistency'], covered('auth.client-resource')),
  'resource-parameter-matches-prm': partial('auth.client-resource'),
};

const flow = (checks: Record<string, Counterpart>, whole?: Counterpart): OfficialScenario => ({ checks: { ...FLOW, ...checks }, ...(whole ? { whole } : {}) });

const CLIENT_CREDENTIALS = each(['grant-type', 'assertion-type', 'jwt-iss', 'jwt-sub', 'jwt-verified', 'basic-auth'].map((s) => `client-credentials-${s}`), NONE);
const DPOP = each(['dpop-auth-scheme', 'fresh-proof', 'token-request-proof', 'as-nonce', 'rs-nonce'].map((s) => `sep-1932-client-${s}`), NONE);

const CLIENT: Record<string, OfficialScenario> = {
  // Presence of clientInfo and a version: initialize-params; a version the client knows: offers-newest judges a nearby rule.
  initialize: { checks: { 'mcp-client-initialization': partial('client.initialize-params', 'client.offers-newest', 'client.schema'), 'server-info': HARNESS } },
  tools_call: { checks: { 'tool-add-numbers': NONE } }, // a scripted call of one named tool
  'elicitation-sep1034-client-defaults': {
    checks: { 'client-elicitation-sep1034-general': partial('client.server-requests'), ...each(['string', 'integer', 'number', 'enum', 'boolean'].map((t) => `client-elicitation-sep1034-${t}-default`), NONE) },
  },
  'sse-retry': {
    checks: {
      'client-sse-graceful-reconnect': covered('client.sse-poll-resumes'),
      'client-sse-retry-timing': covered('client.sse-retry-respected'),
      'client-sse-last-event-id': covered('client.sse-poll-resumes'),
      ...each(['incoming-request', 'outgoing-response', 'outgoing-sse-event', 'outgoing-stream-close'], HARNESS),
    },
  },
  'request-metadata': {
    checks: {
      'sep-2575-http-client-sends-version-header': covered('client.http-protocol-version'),
      'sep-2575-client-populates-meta': covered('client.meta-required'),
      'sep-2575-client-sends-client-info': covered('client.meta-client-info'),
      'sep-2575-http-version-header-matches-meta': covered('client.http-protocol-version'),
      ...each(['roots', 'sampling', 'elicitation'].map((c) => `sep-2575-client-declares-${c}-capability`), covered('client.schema')),
      'sep-2575-client-retry-supported-version': partial('client.counteroffer'),
    },
  },
  'auth/metadata-default': flow({ ...RESOURCE, 'prm-pathbased-requested': covered('auth.client-prm-well-known'), 'prm-priority-order': covered('auth.client-prm-well-known'), 'authorization-server-metadata': covered('auth.client-discovery') }),
  // var1: resource metadata not named in the challenge, authorization server found by OpenID Connect discovery.
  'auth/metadata-var1': flow({ ...RESOURCE, 'prm-pathbased-requested': covered('auth.client-prm-well-known'), 'authorization-server-metadata': covered('auth.client-discovery') }, covered('auth.client-prm-well-known', 'auth.client-as-oidc')),
  // var2: resource metadata only at the root URI (mcpspec never makes the client fall back to it).
  'auth/metadata-var2': flow({ ...RESOURCE, 'authorization-server-metadata': covered('auth.client-discovery'), 'authorization-server-metadata-wrong-path': covered('auth.client-as-well-known') }, partial('auth.client-prm-well-known')),
  // var3: authorization server metadata only at the OIDC path-appended URI (mcpspec serves another one).
  'auth/metadata-var3': flow({ ...RESOURCE, 'authorization-server-metadata': covered('auth.client-discovery'), 'authorization-server-metadata-wrong-path': covered('auth.client-as-well-known') }, partial('auth.client-as-well-known')),
  'auth/basic-cimd': flow({ 'cimd-client-id-used': covered('auth.client-cimd') }),
  'auth/scope-from-www-authenticate': flow({ 'scope-from-www-authenticate': covered('auth.client-scope', 'auth.client-scope-authoritative') }),
  'auth/scope-from-scopes-supported': flow({ 'scope-from-scopes-supported': covered('auth.client-scope-supported') }),
  'auth/scope-omitted-when-undefined': flow({ 'scope-omitted-when-undefined': covered('auth.client-scope-omitted') }),
  'auth/scope-step-up': flow(each(['scope-step-up-initial', 'scope-step-up-escalation', 'sep-2350-scope-union-on-reauth'], covered('auth.client-step-up', 'auth.client-scope'))),
  'auth/scope-retry-limit': flow({ 'scope-retry-limit': NONE, 'scope-retry-auth-attempt': HARNESS }),
  'auth/token-endpoint-auth-basic': flow({ ...RESOURCE, 'token-endpoint-auth-method': covered('auth.client-token-auth') }),
  'auth/token-endpoint-auth-post': flow({ ...RESOURCE, 'token-endpoint-auth-method': NONE }),
  'auth/token-endpoint-auth-none': flow({ ...RESOURCE, 'token-endpoint-auth-method': NONE }),
  'auth/pre-registration': flow({ 'pre-registration-auth': NONE }),
  // 2025-03-26 discovery fallbacks: that version is outside mcpspec's.
  'auth/2025-03-26-oauth-metadata-backcompat': { checks: each(['authorization-server-metadata', 'client-registration', 'authorization-request', 'token-request'], NONE) },
  'auth/2025-03-26-oauth-endpoint-fallback': { checks: each(['client-registration', 'authorization-request', 'token-request'], NONE) },
  'auth/resource-mismatch': flow({ 'resource-mismatch-rejected': covered('auth.client-prm-resource') }),
  // mcpspec judges refresh_token among the grant types only of a client that refreshes.
  'auth/offline-access-scope': flow({ 'sep-2207-client-metadata-grant-types': partial('auth.client-refresh-grant'), 'sep-2207-offline-access-requested': HARNESS }),
  'auth/offline-access-not-supported': flow({ 'sep-2207-offline-access-not-requested': NONE }),
  'auth/authorization-server-migration': flow(each(['sep-2352-reregister-on-as-change', 'sep-2352-no-reuse-on-as-change', 'sep-2352-no-cross-as-credential-reuse'], covered('auth.client-as-binding'))),
  // The same check id accepts a matching iss here and refuses a wrong one in iss-wrong-issuer.
  'auth/iss-supported': flow({ 'sep-2468-client-compare-iss-supported': NONE }),
  'auth/iss-wrong-issuer': flow({ 'sep-2468-client-compare-iss-supported': covered('auth.client-iss') }),
  'auth/iss-not-advertised': flow({ 'sep-2468-client-proceed-no-iss': covered('auth.client-iss-optional') }),
  'auth/iss-supported-missing': flow({ 'sep-2468-client-reject-missing-iss': covered('auth.client-iss-absent') }),
  'auth/iss-unexpected': flow({ 'sep-2468-client-compare-iss-unadvertised': covered('auth.client-iss-unadvertised') }),
  'auth/iss-normalized': flow({ 'sep-2468-client-no-normalization': covered('auth.client-iss-exact') }),
  'auth/metadata-issuer-mismatch': flow({ 'sep-2468-client-validate-metadata-issuer': covered('auth.client-issuer') }),
  // Authorization extensions mcpspec does not implement.
  'auth/client-credentials-jwt': { checks: CLIENT_CREDENTIALS },
  'auth/client-credentials-basic': { checks: CLIENT_CREDENTIALS },
  'auth/enterprise-managed-authorization': { checks: each(['complete-flow-token-exchange', 'complete-flow-jwt-bearer'], NONE) },
  'auth/dpop': { checks: DPOP },
  'auth/dpop-nonce': { checks: DPOP },
  'auth/wif-jwt-bearer': { checks: each(['wif-grant-type', 'wif-assertion-missing', 'wif-assertion-verified', 'wif-assertion-expired', 'wif-assertion-audience', 'wif-assertion-malformed', 'wif-no-retry', 'wif-grant-fallback'], NONE) },
  'sep-2322-client-request-state': {
    checks: {
      'sep-2322-client-request-state-echoed': covered('client.mrtr-request-state'),
      'sep-2322-client-jsonrpc-id-different': covered('client.mrtr-retry-id'),
      'sep-2322-client-no-state-omitted': covered('client.mrtr-no-invented-state'),
      'sep-2322-client-parallel-isolation': covered('client.mrtr-scoped'),
      'sep-2322-default-result-type-complete': covered('client.result-type-missing'),
    },
  },
  'http-standard-headers': { checks: { 'sep-2243-client-includes-standard-headers': covered('client.http-method-header', 'client.http-name-header') } },
  'http-custom-headers': {
    checks: {
      'sep-2243-client-supports-custom-headers': covered('client.http-param-headers'),
      // Annotated string parameters mirrored: judged; no header for unannotated ones: not.
      'sep-2243-client-mirrors-designated-params': partial('client.http-param-headers'),
      'sep-2243-client-encode-values': NONE,
      'sep-2243-client-base64-unsafe': partial('client.http-param-headers'),
      'sep-2243-client-omit-null': partial('client.http-param-headers'),
    },
  },
  'http-invalid-tool-headers': {
    checks: { ...each(['sep-2243-client-reject-invalid-tool', ...['not-empty', 'charset', 'unique', 'primitive-only'].map((s) => `sep-2243-x-mcp-header-${s}`)], NONE), 'sep-2243-invalid-tool-tools-list-gate': HARNESS },
  },
  'json-schema-ref-no-deref': { checks: { 'sep-2106-no-network-ref-deref': NONE } },
  'json-schema-2020-12-preservation': {
    checks: {
      ...each(['json-schema-2020-12-client-$schema-preserved', 'json-schema-2020-12-client-$defs-preserved', 'json-schema-2020-12-client-additionalProperties-preserved', 'sep-2106-client-composition-keywords-preserved', 'sep-2106-client-conditional-keywords-preserved', 'sep-2106-client-anchor-keyword-preserved'], NONE),
      ...each(['json-schema-2020-12-client-tool-found', 'json-schema-2020-12-client-echo-completed'], HARNESS),
    },
  },
  // Host verification of a loaded skill (digest, size, front matter) shows on the wire only once a host
  // loads a skill; no mcpspec run gives it a reason to (suites/skills/client-checks.ts).
  'sep-2640-client-no-prefetch': { checks: { 'sep-2640-host-no-prefetch': covered('client.skills-no-prefetch') } },
  'sep-2640-client-verify-digest': { checks: { 'sep-2640-host-verify-digest': NONE } },
  'sep-2640-client-verify-size': { checks: { 'sep-2640-host-size-mismatch-failure': NONE } },
  'sep-2640-client-verify-frontmatter': { checks: { 'sep-2640-host-frontmatter-comparison': NONE } },
};

/** The official server and client scenarios (the `conformance server` and `conformance client` commands), by name. */
export const OFFICIAL_SCENARIOS: Readonly<Record<OfficialRole, Readonly<Record<string, OfficialScenario>>>> = { server: SERVER, client: CLIENT };
