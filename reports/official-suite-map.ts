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
  /** For partial and none: what mcpspec does not judge, and why. */
  why?: string;
  /** Where both suites judge the rule but decide a case differently: mcpspec's reading of the spec, quoted. */
  differs?: string;
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
/** A counterpart with the reason it is partial or none. */
const because = (c: Counterpart, why: string): Counterpart => ({ ...c, why });
/** A counterpart that decides some case otherwise than the official check, with the spec's sentence. */
const differs = (c: Counterpart, how: string): Counterpart => ({ ...c, differs: how });

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

// The official check wants the fixture's complete result; the spec lets a server ask again.
const RETRY_SERVED = differs(covered('mrtr.retry-served'), 'a correct retry may get a further input_required: "Servers MAY choose to return an InputRequiredResult on multiple attempts at the same request" (basic/patterns/mrtr); mcpspec accepts any result, the official check only the complete one its fixture gives.');

// A malformed inputResponses value: mcpspec wants Invalid Params.
const MALFORMED = 'only -32602 passes: "Protocol errors (malformed JSON, invalid schema, internal server errors) SHOULD return a JSON-RPC error response with an appropriate error code" (basic/patterns/mrtr), and an inputResponses value of the wrong schema is an invalid parameter (JSON-RPC -32602); the official check also accepts any error code or a fresh input_required.';

// The server's answers to an input_required flow: the first round's shape, then the retry served.
const FIRST_ROUND = 'the official check wants the input requests its fixture tool makes; mcpspec judges the shape of any input_required result a tool gives';
const mrtr = (prefix: string): Record<string, Counterpart> => ({ [`sep-2322-${prefix}-incomplete`]: because(partial('mrtr.shape'), FIRST_ROUND), [`sep-2322-${prefix}-complete`]: RETRY_SERVED });

// The tools-call-* and prompts-get-* checks call named tools and prompts of the official fixture server.
const FIXTURE_TOOL = 'the official check calls a tool its own fixture server defines and compares the answer with the content that fixture gives; black-box, mcpspec judges whatever any tool returns against the schema';
const FIXTURE_PROMPT = 'the official check gets a prompt its own fixture server defines and compares the messages; black-box, mcpspec gets the prompts the server lists (with generated arguments) and judges the answers';

// What a server's listed tool schemas can show black-box.
const SCHEMA_SEEN = 'black-box mcpspec sees only the schema a server lists, not the one it was written with: what stripping or relabelling leaves broken or ineffective shows (a $ref into a stripped $defs, a 2020-12 keyword under an older $schema, then/else without if)';
// The server's elicitation requests, judged when a tool asks for one.
const ASKED_FORM = 'the official check calls its fixture tool that asks for a form with these defaults or enums; mcpspec judges against the schema whatever form any tool asks for';
const PARAM_HEADERS = 'mcpspec calls a tool that declares x-mcp-header with the header missing, wrong and malformed (http.param-headers); the official check also sends characters a header may not carry';
const TASK_SHAPE = 'judged through the schema of every task result mcpspec sees, not by a probe of its own';
// A skill loaded by a host: judged where the host loads one (told by its scenario, or a harness by the official name).
const HOST_LOAD = because(partial('client.skills-verified'), 'judged when the host loads one of the three tampered skills (a conformance client reads MCPSPEC_SCENARIO, a harness its official name); a host that loads none is untestable, and the three ways to fail are one check');

const SERVER: Record<string, OfficialScenario> = {
  'server-initialize': { checks: { 'server-initialize': covered('lifecycle.initialize-result'), 'server-session-id-visible-ascii': covered('http.session-id-visible') } },
  'server-session-lifecycle': {
    checks: {
      'server-session-initialized-accepted': because(partial('http.notification-202'), 'mcpspec judges the 202 of every notification it posts, not of notifications/initialized on its own'),
      'server-session-delete-accepted': because(partial('http.unknown-session'), 'mcpspec judges what a DELETE leads to (the session answers 404 afterwards), not the status of the DELETE itself, which a server may refuse with 405'),
      'server-session-terminated-returns-404': covered('http.unknown-session'),
      ...each(['server-session-lifecycle-error', 'server-session-lifecycle-skipped'], HARNESS),
    },
  },
  'server-stateless': {
    checks: {
      ...each(['sep-2575-request-meta-invalid-missing-meta', 'sep-2575-request-meta-invalid-missing-protocol-version', 'sep-2575-request-meta-invalid-missing-client-capabilities', 'sep-2575-http-server-meta-invalid-400'], covered('meta.required-keys')),
      'sep-2575-request-meta-client-info-optional': differs(covered('meta.client-info-optional'), 'a warning, not a fail: clientInfo is optional in RequestMetaObject and "Clients SHOULD include io.modelcontextprotocol/clientInfo on every request" (basic/index); no sentence obliges a server to serve a request without it.'),
      'sep-2575-server-implements-discover': covered('discover.result'),
      'sep-2575-server-identifies-in-result-meta': covered('discover.server-info', 'meta.server-info'),
      'sep-2575-server-declares-prompts-in-discover': because(partial('capabilities.undeclared-method', 'capabilities.declared-served'), 'the official check knows its fixture serves prompts and wants them declared; black-box, mcpspec judges that what is declared is served and what is not declared is refused'),
      'sep-2575-discover-capabilities-match-handlers': because(partial('capabilities.undeclared-method', 'capabilities.declared-served'), 'judged from both sides (declared methods answer, undeclared ones are refused) rather than against a known list of handlers'),
      'sep-2575-server-unsupported-version-error': covered('version.unsupported', 'version.unsupported-every-request'),
      'sep-2575-http-server-unsupported-version-400': covered('version.unsupported'),
      'sep-2575-http-server-header-mismatch-400': covered('http.header-mismatch'),
      'sep-2575-server-rejects-undeclared-capability': covered('mrtr.declared-capabilities', 'meta.capability-error'),
      'sep-2575-missing-capability-http-400': covered('meta.capability-error'),
      // The methods 2026-07-28 removed, called the modern way. initialize: mcpspec lets a dual-era
      // server take it as the legacy handshake (skip), where the official suite wants 404 from every server.
      ...each(['ping', 'logging-setlevel', 'resources-subscribe', 'resources-unsubscribe'].map((m) => `sep-2575-http-server-method-not-found-404-${m}`), covered('version.removed-methods')),
      'sep-2575-http-server-method-not-found-404-initialize': differs(partial('version.initialize-modern'), 'a dual-era server is skipped, not failed: "An initialize request selects legacy semantics, scoped to the stdio process (stdio) or the session (HTTP)" (basic/versioning, dual-era servers), so it may answer initialize with an InitializeResult; a modern-only server must answer -32601 (404 over HTTP). The official check wants 404 from every server.'),
      'sep-2575-http-server-method-not-found-404': covered('http.unknown-method-404', 'jsonrpc.method-not-found'),
      'sep-2575-http-server-no-independent-requests-on-stream': covered('wire.direction'),
      'sep-2575-server-no-log-without-loglevel': covered('logging.per-request'),
      'sep-2575-server-sends-subscription-ack': covered('subscriptions.ack'),
      'sep-2575-server-tags-subscription-id': covered('subscriptions.ids'),
      'sep-2575-server-honors-notification-filter': covered('subscriptions.requested-only'),
      'sep-2575-server-sends-prompts-list-changed-on-subscription': covered('lists.prompts-changed'),
      'sep-2575-server-sends-tools-list-changed-on-subscription': covered('lists.tools-changed'),
      'sep-2575-http-server-error-jsonrpc-id': covered('jsonrpc.id-echo'),
    },
  },
  'logging-set-level': { checks: { 'logging-set-level': covered('logging.set-level') } },
  ping: { checks: { ping: covered('lifecycle.ping') } },
  'completion-complete': { checks: { 'completion-complete': because(partial('completion.complete'), 'a warning in mcpspec (the completion page has no MUST for answering), a failure there; the official check also asks its fixture prompt by name') } },
  'tools-list': { checks: { 'tools-list': because(partial('wire.schema', 'tools.input-schema'), 'the official check also wants the tools its fixture defines'), 'tools-name-format': covered('tools.names'), 'tools-list-deterministic-order': covered('caching.tools-order') } },
  'tools-call-simple-text': { checks: { 'tools-call-simple-text': because(partial('tools.call-valid-args', 'wire.schema'), FIXTURE_TOOL) } },
  'tools-call-image': { checks: { 'tools-call-image': because(partial('wire.schema'), FIXTURE_TOOL) } },
  'tools-call-audio': { checks: { 'tools-call-audio': because(partial('wire.schema'), FIXTURE_TOOL) } },
  'tools-call-embedded-resource': { checks: { 'tools-call-embedded-resource': because(partial('wire.schema'), FIXTURE_TOOL) } },
  'tools-call-mixed-content': { checks: { 'tools-call-mixed-content': because(partial('wire.schema'), FIXTURE_TOOL) } },
  'tools-call-with-logging': { checks: { 'tools-call-with-logging': because(partial('logging.set-level-filter'), 'the official check calls a fixture tool that logs; mcpspec judges the log messages any call or logging/setLevel brings, and their level filter') } },
  'tools-call-error': { checks: { 'tools-call-error': because(partial('tools.invalid-args-rejected', 'tools.invalid-args-as-result'), 'the official check calls a fixture tool that always fails and wants isError; mcpspec provokes tool errors with invalid arguments on any tool') } },
  'tools-call-with-progress': { checks: { 'tools-call-with-progress': covered('progress.notifications') } },
  'tools-call-sampling': { checks: { 'tools-call-sampling': because(partial('asks.answered', 'asks.schema', 'asks.declared'), 'the official check calls the fixture tool that asks; mcpspec judges the sampling requests of whatever tool asks for one, when one does') } },
  'tools-call-elicitation': { checks: { 'tools-call-elicitation': because(partial('asks.answered', 'asks.schema', 'asks.declared'), 'the official check calls the fixture tool that asks; mcpspec judges the elicitation requests of whatever tool asks for one, when one does') } },
  'json-schema-2020-12': {
    checks: {
      // Black-box mcpspec never sees the schema a server was written with, only what it lists: what stripping
      // or relabelling leaves broken shows (a $ref into a stripped $defs or to a stripped $anchor does not
      // compile; a 2020-12 keyword under a draft-07 $schema, a then/else without its if, do nothing); a keyword
      // stripped cleanly (additionalProperties, allOf/anyOf) leaves a valid schema and cannot show.
      'json-schema-2020-12-$schema': because(partial('tools.input-schema', 'tools.schema-dialect'), SCHEMA_SEEN),
      'json-schema-2020-12-$defs': because(partial('tools.input-schema'), SCHEMA_SEEN),
      'sep-2106-conditional-keywords-preserved': because(partial('tools.schema-dialect'), SCHEMA_SEEN),
      'sep-2106-anchor-keyword-preserved': because(partial('tools.input-schema', 'tools.schema-dialect'), SCHEMA_SEEN),
      ...each(['json-schema-2020-12-additionalProperties', 'sep-2106-composition-keywords-preserved'], because(NONE, 'black-box, a server that strips additionalProperties or allOf/anyOf cleanly lists a valid schema: only the source it was written from, which the official fixture knows, shows the loss')),
      ...each(['json-schema-2020-12-tool-found', 'json-schema-2020-12-error'], HARNESS),
    },
  },
  'elicitation-sep1034-defaults': {
    checks: {
      'elicitation-sep1034-general': because(partial('asks.schema', 'asks.answered'), ASKED_FORM),
      ...each(['string', 'integer', 'number', 'enum', 'boolean'].map((t) => `elicitation-sep1034-${t}-default`), because(partial('asks.schema'), ASKED_FORM)),
    },
  },
  'server-sse-polling': {
    checks: {
      'server-sse-priming-event': covered('http.sse-priming'),
      'server-sse-retry-field': covered('http.sse-retry'),
      'server-sse-disconnect-resume': covered('http.resume-delivers', 'http.resume-own-stream'),
      ...each(['server-sse-polling-session', 'server-sse-test-reconnection-tool', 'server-sse-post-request', 'server-sse-content-type', 'server-sse-polling-stream', 'stream-closed', 'incoming-sse-event', 'server-sse-polling-error'], HARNESS),
    },
  },
  // http.concurrent-requests posts three requests at once: each must come back with its own response on its own answer
  // (the official suite asks for HTTP 200 on each, and an event on each SSE stream).
  'server-sse-multiple-streams': {
    checks: { ...each(['server-accepts-multiple-post-streams', 'server-sse-streams-functional'], covered('http.concurrent-requests')), ...each(['server-sse-multiple-streams-session', 'server-sse-multiple-streams-error'], HARNESS) },
  },
  'elicitation-sep1330-enums': {
    checks: {
      ...each(['general', 'untitled-single', 'titled-single', 'legacy-enumnames', 'untitled-multi', 'titled-multi'].map((s) => `elicitation-sep1330-${s}`), because(partial('asks.schema'), ASKED_FORM)),
      ...each(['outgoing-request', 'incoming-response'], HARNESS),
    },
  },
  'resources-list': { checks: { 'resources-list': covered('wire.schema') } },
  'resources-read-text': { checks: { 'resources-read-text': because(partial('resources.read', 'wire.schema'), 'the official check reads a resource its fixture defines and compares its content; mcpspec reads the resources the server lists and judges the answers') } },
  'resources-read-binary': { checks: { 'resources-read-binary': because(partial('resources.read', 'wire.schema'), 'the official check reads a resource its fixture defines and compares its content; mcpspec reads the resources the server lists and judges the answers') } },
  'resources-templates-read': { checks: { 'resources-templates-read': because(partial('resources.template-read'), 'the official check reads one named template of its fixture and looks for the value in the text; mcpspec expands whatever templates are listed, and takes "not found" for a value the server lacks') } },
  'resources-subscribe': { checks: { 'resources-subscribe': covered('subscriptions.resources-legacy') } },
  'resources-unsubscribe': { checks: { 'resources-unsubscribe': covered('subscriptions.resources-legacy') } },
  'sep-2164-resource-not-found': { checks: { 'sep-2164-no-empty-contents': covered('resources.unknown-modern'), 'sep-2164-error-code': differs(covered('resources.unknown-modern'), 'a fail, not a warning: "If the requested resource does not exist, servers MUST return a JSON-RPC error with code -32602 (Invalid Params)" (server/resources, 2026-07-28); the official check reports another code as a WARNING.'), 'sep-2164-data-uri': covered('resources.unknown-data-uri') } },
  // The skills extension (SEP-2640): suites/skills/.
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
      ...each(['skillmd-metadata-name', 'skillmd-metadata-description'].map((s) => `sep-2640-${s}`), because(NONE, 'the name and description a resources/list entry of SKILL.md carries: listing SKILL.md in resources/list is optional, and a server that does not list it (the reference fixture) has nothing to judge; mcpspec judges the same facts in the skills/list entry and the front matter (skills.entry-shape, skills.manifest)')),
      'sep-2640-meta-prefix': because(NONE, 'the reserved _meta key prefix on that same resources/list entry of SKILL.md, not judged for the same reason; skills.conventions judges the prefix on skill entries'),
    },
  },
  'prompts-list': { checks: { 'prompts-list': because(partial('wire.schema'), 'the official check also wants the prompts its fixture defines') } },
  'prompts-get-simple': { checks: { 'prompts-get-simple': because(partial('prompts.get', 'wire.schema'), FIXTURE_PROMPT) } },
  'prompts-get-with-args': { checks: { 'prompts-get-with-args': because(partial('prompts.get'), FIXTURE_PROMPT) } },
  'prompts-get-embedded-resource': { checks: { 'prompts-get-embedded-resource': because(partial('wire.schema'), FIXTURE_PROMPT) } },
  'prompts-get-with-image': { checks: { 'prompts-get-with-image': because(partial('wire.schema'), FIXTURE_PROMPT) } },
  // mcpspec sends a foreign Origin (never a foreign Host), and never its own Origin.
  // The official suite takes any 4xx for the rebinding request; mcpspec asks 403 (HM-13) except in
  // 2025-06-18. It wants the own-origin request served (MUST); mcpspec warns (the spec's sentence is on invalid Origins).
  'dns-rebinding-protection': { checks: { 'localhost-host-rebinding-rejected': covered('http.origin-rebinding', 'http.origin'), 'localhost-host-valid-accepted': differs(covered('http.origin-same'), 'a warning, not a fail: the transport text obliges a server only to refuse invalid origins ("If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden"); serving its own origin is what a working server does, not a sentence of the spec.') } },
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
      // One id for several probes (missing Mcp-Method and Mcp-Name, a mismatched or differently cased value): mcpspec sends each on purpose.
      'sep-2243-server-reject-invalid-headers': covered('http.standard-header-missing', 'http.standard-header-mismatch', 'http.header-mismatch'),
      // The official suite asks -32020 as a SHOULD; the 2026-07-28 text (Server Validation) says MUST, as mcpspec does.
      'sep-2243-server-reject-error-code': covered('http.standard-header-missing', 'http.standard-header-mismatch'),
      'sep-2243-server-accepts-whitespace-header-value': covered('http.standard-header-ows'),
      'sep-2243-header-name-case-insensitive': covered('http.standard-header-name-case'),
      'sep-2243-server-standard-setup': HARNESS,
    },
  },
  'http-custom-header-server-validation': {
    checks: {
      'sep-2243-server-decode-base64': covered('http.param-headers'),
      'sep-2243-server-reject-invalid-param-chars': because(partial('http.param-headers'), PARAM_HEADERS),
      'sep-2243-server-validate-param-match': because(partial('http.param-headers'), PARAM_HEADERS),
      'sep-2243-server-reject-param-mismatch': covered('http.param-headers'),
      ...each(['sep-2243-server-custom-setup', 'sep-2243-server-no-xmcp-tool', 'sep-2243-server-no-string-param'], HARNESS),
    },
  },
  'tasks-lifecycle': {
    checks: {
      'tasks-sync-tool-call': because(partial('wire.result-type'), 'the official check calls its fixture\'s synchronous tool; mcpspec judges the resultType of every result, a plain call\'s included'),
      'sep-2663-result-type-task-on-create': covered('tasks.modern-create'),
      ...each(['working', 'completed', 'failed'].map((s) => `sep-2663-tasks-get-status-${s}`), covered('tasks.modern-get')),
      'sep-2663-tool-error-uses-completed-status': covered('tasks.modern-is-error'),
      'sep-2663-cancel-ack-empty-result': covered('tasks.modern-acks', 'tasks.transitions'),
      'tasks-cancel-terminal-idempotent-ack': because(partial('tasks.modern-acks'), 'mcpspec judges the acknowledgements of tasks/cancel and tasks/update, a cancel of a finished task among them when the run has one'),
      'tasks-lifecycle-bootstrap': HARNESS,
    },
  },
  'tasks-capability-negotiation': {
    checks: {
      'tasks-extension-advertised': because(partial('tasks.modern-create'), 'mcpspec runs the tasks checks on a server that declares the extension; one that creates tasks without declaring it shows in tasks.modern-create'),
      'sep-2663-tasks-methods-non-declaring': covered('tasks.modern-get-undeclared', 'tasks.modern-update-cancel-undeclared'),
      'sep-2663-server-rejects-undeclared-client': covered('tasks.modern-undeclared'),
      'tasks-per-request-meta-opt-in': covered('tasks.modern-create'),
      'tasks-capability-bootstrap': HARNESS,
    },
  },
  // tasks.modern-no-related-task-meta is a SHOULD in mcpspec (no sentence forbids the key), a MUST there.
  'tasks-wire-fields': {
    checks: { 'tasks-wire-field-renames': covered('tasks.modern-create'), 'tasks-no-early-ttl-expiry': covered('tasks.modern-kept-for-ttl'), 'tasks-no-related-task-meta-on-inlined-result': differs(partial('tasks.modern-no-related-task-meta'), 'a warning, not a fail: the related-task key is gone from the 2026 schemas, but neither SEP-2663 nor the extension page has a sentence ("MUST NOT") forbidding it on an inlined result. The official check fails it.'), 'tasks-wire-fields-bootstrap': HARNESS },
  },
  'tasks-request-state-removal': {
    checks: {
      'tasks-create-result-no-request-state': because(partial('tasks.modern-create'), TASK_SHAPE),
      'tasks-get-detailed-no-request-state': because(partial('tasks.modern-get'), TASK_SHAPE),
      ...each(['tasks-request-state-bootstrap', 'tasks-request-state-removal-setup'], HARNESS),
    },
  },
  'tasks-mrtr-input': {
    checks: { 'sep-2663-tasks-get-status-input-required': covered('tasks.modern-get'), 'tasks-mrtr-tasks-update-resumes': because(partial('tasks.modern-acks'), 'mcpspec judges that tasks/update is acknowledged and the task moves on when the run has an input_required task; the official check drives its fixture tool to completion'), 'tasks-mrtr-partial-fulfillment': covered('tasks.modern-partial-update'), 'tasks-mrtr-input-bootstrap': HARNESS },
  },
  'tasks-request-headers': {
    checks: {
      // Over HTTP every tools/call mcpspec sends carries Mcp-Method; a refusal shows in tools.call-valid-args.
      'tasks-headers-tolerate-mcp-method-on-tools-call': because(partial('tools.call-valid-args'), 'over HTTP every tools/call mcpspec sends carries Mcp-Method, a task-creating one too: a refusal shows in tools.call-valid-args, not under a check of its own'),
      'sep-2663-routing-headers-accepted-on-tasks-get': covered('tasks.modern-routing-headers'),
      'tasks-headers-reject-mismatched-method': covered('http.header-mismatch'),
      'sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get': because(partial('http.header-mismatch'), 'mcpspec sends mismatched Mcp-Name on purpose on tools/call, resources/read and prompts/get (http.standard-header-mismatch); on tasks/get only the oracle judges what it happens to see'),
      'tasks-headers-bootstrap': HARNESS,
    },
  },
  'tasks-dispatch-and-envelope': {
    checks: {
      'sep-2663-tasks-result-removed-method-not-found': covered('tasks.modern-no-tasks-result'),
      'tasks-removed-tasks-list': covered('tasks.modern-no-tasks-list'),
      'sep-2663-legacy-task-param-ignored': covered('tasks.modern-legacy-task-param'),
      'tasks-server-directed-creation-no-hint': because(partial('tasks.modern-create'), TASK_SHAPE),
      'tasks-result-type-complete-on-non-task-responses': covered('wire.result-type', 'tasks.modern-get', 'tasks.modern-acks'),
      'sep-2663-durable-create-strong-consistency': covered('tasks.modern-create'),
      'sep-2663-tasks-get-invalid-task-id-32602': covered('tasks.modern-unknown-id'),
      ...each(['tasks-dispatch-bootstrap', 'tasks-immediate-result-shortcut'], HARNESS),
    },
  },
  // Its one check is an always-skipped placeholder; the rule it stands for is tasks.modern-notify's.
  'tasks-status-notifications': { checks: { 'tasks-status-notifications': HARNESS }, whole: because(partial('tasks.modern-notify'), 'the official scenario is an always-skipped placeholder; mcpspec judges the status notifications a task sends when it sends any') },
  'tasks-required-task-error': {
    checks: {
      // The -32021 MUST is for a server unable to serve the call without a task; mcpspec passes a plain result.
      'sep-2663-server-returns-missing-capability-when-required': differs(partial('tasks.modern-undeclared'), 'a plain result passes: "If a server is unable to service a request to a client that does not declare this extension capability without returning CreateTaskResult, the server MUST return an error with the code -32021" (SEP-2663); a server that answers the call without a task was able to, and the 2026 tool has no taskSupport to say it could not. The official check wants -32021.'),
      'sep-2663-server-returns-missing-capability-data-shape': covered('tasks.modern-undeclared', 'meta.capability-error'),
      'tasks-required-error-bootstrap': HARNESS,
    },
  },
  'tasks-mrtr-composition': { checks: { 'sep-2663-mrtr-synchronous-before-task-creation': because(NONE, 'a SHOULD on the order a server asks for input and creates a task in: black-box, only a fixture tool known to need input before its task shows it') } },
  'input-required-result-basic-elicitation': { checks: mrtr('elicitation') },
  'input-required-result-basic-sampling': { checks: mrtr('sampling') },
  'input-required-result-basic-list-roots': { checks: mrtr('list-roots') },
  'input-required-result-request-state': { checks: { ...mrtr('request-state'), 'sep-2322-request-state-incomplete': because(partial('mrtr.shape', 'wire.schema'), FIRST_ROUND) } },
  'input-required-result-multiple-input-requests': { checks: mrtr('multiple-inputs') },
  'input-required-result-multi-round': {
    checks: { 'sep-2322-multi-round-r1': because(partial('mrtr.shape'), FIRST_ROUND), 'sep-2322-multi-round-r2': because(partial('mrtr.retry-served'), 'mcpspec accepts a second round without wanting its requestState to change: the spec says nothing of a state changing between rounds'), 'sep-2322-multi-round-r3': covered('mrtr.retry-served') },
  },
  'input-required-result-missing-input-response': { checks: { 'sep-2322-missing-response-rerequests': covered('mrtr.missing-response') } },
  'input-required-result-non-tool-request': { checks: mrtr('non-tool') },
  'input-required-result-result-type': { checks: { 'sep-2322-result-type-included': covered('wire.result-type') } },
  'input-required-result-unsupported-methods': { checks: { 'sep-2322-not-on-unsupported-requests': covered('wire.result-type') } },
  // mcpspec: a SHOULD, and a restarted flow passes too.
  'input-required-result-tampered-state': { checks: { 'sep-2322-reject-tampered-state': differs(partial('mrtr.tampered-state'), 'a warning, and a restarted flow passes: "Integrity protection MAY be omitted only when tampering can cause nothing worse than request failure" (basic/patterns/mrtr), which a black-box run cannot rule out; only a tampered state served as if genuine is judged. The official check fails anything but an error.') } },
  'input-required-result-capability-check': { checks: { 'sep-2322-respect-client-capabilities': covered('mrtr.declared-capabilities') } },
  'input-required-result-ignore-extra-params': { checks: { 'sep-2322-ignore-unexpected-params': covered('mrtr.extra-responses-ignored') } },
  'input-required-result-validate-input': { checks: { 'sep-2322-validate-input-responses': differs(covered('mrtr.malformed-responses'), MALFORMED), 'sep-2322-error-on-protocol-error': differs(partial('mrtr.malformed-responses'), MALFORMED) } },
};

// The checks every OAuth flow scenario reports: the flow's steps reached, PKCE, the registration's
// application_type, the bearer token. mcpspec reports a client that never authorizes as untestable.
const FLOW: Record<string, Counterpart> = {
  ...each(['client-registration', 'authorization-request', 'token-request'], because(partial('auth.client-pkce', 'auth.client-resource'), 'a step of the flow reached: mcpspec judges what the step must carry (PKCE, resource) and reports a client that never reaches it as untestable, not failed')),
  ...each(['pkce-code-challenge-sent', 'pkce-s256-method-used', 'pkce-code-verifier-sent', 'pkce-verifier-matches-challenge'], covered('auth.client-pkce')),
  'sep-837-application-type-present': covered('auth.client-application-type'),
  ...each(['valid-bearer-token', 'invalid-bearer-token'], covered('auth.client-bearer')),
};

// RFC 8707 resource checks of the metadata and token-endpoint-auth scenarios. auth.client-resource (MUST)
// compares URL-normalised values; the exact string as the resource metadata publishes it is
// auth.client-resource-exact (SHOULD: the trailing-slash form is a SHOULD, and the two forms name the same
// resource after RFC 3986 normalisation), judged where the metadata publishes a pathless origin.
const RESOURCE: Record<string, Counterpart> = {
  ...each(['resource-parameter-in-authorization', 'resource-parameter-in-token', 'resource-parameter-valid-uri', 'resource-parameter-consistency'], covered('auth.client-resource')),
  'resource-parameter-matches-prm': differs(partial('auth.client-resource', 'auth.client-resource-exact'), 'the resource after URL normalisation is a MUST (auth.client-resource), the exact string the metadata publishes a warning (auth.client-resource-exact): the canonical URI text notes that the forms with and without a trailing slash "are technically valid absolute URIs" and asks implementations to prefer one (a SHOULD). The official check compares strings and fails.'),
};

// 2025-03-26 discovery fallbacks (no resource metadata, default endpoints): that version is outside mcpspec's.
const OLD_AUTH = because(NONE, 'the 2025-03-26 fallbacks (authorization server metadata at the MCP server, default endpoint paths): mcpspec judges 2025-06-18 and later, where a client discovers through protected resource metadata');

const flow = (checks: Record<string, Counterpart>, whole?: Counterpart): OfficialScenario => ({ checks: { ...FLOW, ...checks }, ...(whole ? { whole } : {}) });

// Authorization extensions (ext-auth), outside the core specification mcpspec judges.
const EXTENSION = (name: string) => because(NONE, `the ${name} authorization extension: not part of the core specification (2025-06-18 to 2026-07-28) mcpspec judges`);
const CLIENT_CREDENTIALS = each(['grant-type', 'assertion-type', 'jwt-iss', 'jwt-sub', 'jwt-verified', 'basic-auth'].map((s) => `client-credentials-${s}`), EXTENSION('OAuth client credentials'));
const DPOP = each(['dpop-auth-scheme', 'fresh-proof', 'token-request-proof', 'as-nonce', 'rs-nonce'].map((s) => `sep-1932-client-${s}`), EXTENSION('DPoP (SEP-1932)'));

const CLIENT: Record<string, OfficialScenario> = {
  // Presence of clientInfo and a version: initialize-params; a version the client knows: offers-newest judges a nearby rule.
  initialize: { checks: { 'mcp-client-initialization': because(partial('client.initialize-params', 'client.offers-newest', 'client.schema'), 'the official check also wants a protocol version from its own list; mcpspec wants the newest the client supports offered and any version it knows'), 'server-info': HARNESS } },
  tools_call: { checks: { 'tool-add-numbers': because(NONE, 'a smoke test of the official harness: its client is scripted to call the tool add_numbers; mcpspec judges the calls a client makes of the tools it is offered (client.http-*, client.schema), not one named call') } },
  'elicitation-sep1034-client-defaults': {
    checks: { 'client-elicitation-sep1034-general': because(partial('client.server-requests'), 'mcpspec judges that the client answers the elicitation request; the defaults are client.elicitation-defaults'), ...each(['string', 'integer', 'number', 'enum', 'boolean'].map((t) => `client-elicitation-sep1034-${t}-default`), covered('client.elicitation-defaults')) },
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
      'sep-2575-client-retry-supported-version': because(partial('client.counteroffer'), 'mcpspec judges that the client takes up a version the server counter-offers, through its own scripted refusal'),
    },
  },
  'auth/metadata-default': flow({ ...RESOURCE, 'prm-pathbased-requested': covered('auth.client-prm-well-known'), 'prm-priority-order': covered('auth.client-prm-well-known'), 'authorization-server-metadata': covered('auth.client-discovery') }),
  // var1: resource metadata not named in the challenge, authorization server found by OpenID Connect discovery.
  'auth/metadata-var1': flow({ ...RESOURCE, 'prm-pathbased-requested': covered('auth.client-prm-well-known'), 'authorization-server-metadata': covered('auth.client-discovery') }, covered('auth.client-prm-well-known', 'auth.client-as-oidc')),
  // var2: resource metadata only at the root URI, about the origin (mcpspec's client-authorization-root-resource;
  // no check names the fallback itself: a client that does not make it leaves auth.client-resource-exact untestable).
  'auth/metadata-var2': flow({ ...RESOURCE, 'authorization-server-metadata': covered('auth.client-discovery'), 'authorization-server-metadata-wrong-path': covered('auth.client-as-well-known') }, because(partial('auth.client-prm-well-known'), 'no check names the fallback to the root metadata itself: a client that does not make it leaves auth.client-resource-exact untestable')),
  // var3: authorization server metadata only at the OIDC path-appended URI (mcpspec serves another one).
  'auth/metadata-var3': flow({ ...RESOURCE, 'authorization-server-metadata': covered('auth.client-discovery'), 'authorization-server-metadata-wrong-path': covered('auth.client-as-well-known') }, because(partial('auth.client-as-well-known'), 'mcpspec serves the authorization server metadata at another well-known path, not only at the OIDC path-appended one')),
  'auth/basic-cimd': flow({ 'cimd-client-id-used': covered('auth.client-cimd') }),
  'auth/scope-from-www-authenticate': flow({ 'scope-from-www-authenticate': covered('auth.client-scope', 'auth.client-scope-authoritative') }),
  'auth/scope-from-scopes-supported': flow({ 'scope-from-scopes-supported': covered('auth.client-scope-supported') }),
  'auth/scope-omitted-when-undefined': flow({ 'scope-omitted-when-undefined': covered('auth.client-scope-omitted') }),
  'auth/scope-step-up': flow(each(['scope-step-up-initial', 'scope-step-up-escalation', 'sep-2350-scope-union-on-reauth'], covered('auth.client-step-up', 'auth.client-scope'))),
  // The same bound (three authorizations in all); mcpspec warns (the spec's SHOULD) and leaves a client that never steps up untestable.
  'auth/scope-retry-limit': flow({ 'scope-retry-limit': covered('auth.client-step-up-limit'), 'scope-retry-auth-attempt': HARNESS }),
  'auth/token-endpoint-auth-basic': flow({ ...RESOURCE, 'token-endpoint-auth-method': covered('auth.client-token-auth') }),
  'auth/token-endpoint-auth-post': flow({ ...RESOURCE, 'token-endpoint-auth-method': covered('auth.client-token-auth-post') }),
  'auth/token-endpoint-auth-none': flow({ ...RESOURCE, 'token-endpoint-auth-method': covered('auth.client-token-auth-none') }),
  'auth/pre-registration': flow({ 'pre-registration-auth': because(partial('auth.client-pre-registered'), 'mcpspec warns (the spec\'s SHOULD), and a client that never authorizes is untestable: it may have no way to read the credentials') }),
  'auth/2025-03-26-oauth-metadata-backcompat': { checks: each(['authorization-server-metadata', 'client-registration', 'authorization-request', 'token-request'], OLD_AUTH) },
  'auth/2025-03-26-oauth-endpoint-fallback': { checks: each(['client-registration', 'authorization-request', 'token-request'], OLD_AUTH) },
  'auth/resource-mismatch': flow({ 'resource-mismatch-rejected': covered('auth.client-prm-resource') }),
  // mcpspec judges refresh_token among the grant types only of a client that refreshes.
  'auth/offline-access-scope': flow({ 'sep-2207-client-metadata-grant-types': because(partial('auth.client-refresh-grant'), 'refresh_token among the grant types is judged only of a client that refreshes'), 'sep-2207-offline-access-requested': HARNESS }),
  // mcpspec warns: the spec permits offline_access on a condition (a MAY), it states no MUST NOT.
  'auth/offline-access-not-supported': flow({ 'sep-2207-offline-access-not-requested': covered('auth.client-offline-access') }),
  'auth/authorization-server-migration': flow(each(['sep-2352-reregister-on-as-change', 'sep-2352-no-reuse-on-as-change', 'sep-2352-no-cross-as-credential-reuse'], covered('auth.client-as-binding'))),
  // The same check id accepts a matching iss here and refuses a wrong one in iss-wrong-issuer.
  'auth/iss-supported': flow({ 'sep-2468-client-compare-iss-supported': covered('auth.client-iss-match') }),
  'auth/iss-wrong-issuer': flow({ 'sep-2468-client-compare-iss-supported': covered('auth.client-iss') }),
  'auth/iss-not-advertised': flow({ 'sep-2468-client-proceed-no-iss': covered('auth.client-iss-optional') }),
  'auth/iss-supported-missing': flow({ 'sep-2468-client-reject-missing-iss': covered('auth.client-iss-absent') }),
  'auth/iss-unexpected': flow({ 'sep-2468-client-compare-iss-unadvertised': covered('auth.client-iss-unadvertised') }),
  'auth/iss-normalized': flow({ 'sep-2468-client-no-normalization': covered('auth.client-iss-exact') }),
  'auth/metadata-issuer-mismatch': flow({ 'sep-2468-client-validate-metadata-issuer': covered('auth.client-issuer') }),
  // Authorization extensions mcpspec does not implement.
  'auth/client-credentials-jwt': { checks: CLIENT_CREDENTIALS },
  'auth/client-credentials-basic': { checks: CLIENT_CREDENTIALS },
  'auth/enterprise-managed-authorization': { checks: each(['complete-flow-token-exchange', 'complete-flow-jwt-bearer'], EXTENSION('enterprise-managed')) },
  'auth/dpop': { checks: DPOP },
  'auth/dpop-nonce': { checks: DPOP },
  'auth/wif-jwt-bearer': { checks: each(['wif-grant-type', 'wif-assertion-missing', 'wif-assertion-verified', 'wif-assertion-expired', 'wif-assertion-audience', 'wif-assertion-malformed', 'wif-no-retry', 'wif-grant-fallback'], EXTENSION('workload identity federation (JWT bearer)')) },
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
      // Annotated parameters mirrored, and none for an unannotated one.
      'sep-2243-client-mirrors-designated-params': covered('client.http-param-headers', 'client.http-param-unannotated'),
      'sep-2243-client-encode-values': covered('client.http-param-encoding'),
      'sep-2243-client-base64-unsafe': because(partial('client.http-param-headers'), 'judged on the values mcpspec\'s echo tool is called with (one needs Base64), not on every unsafe character class'),
      'sep-2243-client-omit-null': because(partial('client.http-param-headers'), 'judged when the client calls with the annotated argument absent; mcpspec does not ask for a null'),
    },
  },
  'http-invalid-tool-headers': {
    // The official suite's ten invalid tools, listed before valid_tool: a client that calls only the first tool it keeps shows only the first rule it misses.
    checks: { 'sep-2243-client-reject-invalid-tool': covered('client.http-invalid-tool-unused'), ...each(['not-empty', 'charset', 'unique', 'primitive-only'].map((s) => `sep-2243-x-mcp-header-${s}`), because(partial('client.http-invalid-tool-unused'), 'one check for the four constraints: a client that calls only the first tool it keeps shows only the first rule it misses')), 'sep-2243-invalid-tool-tools-list-gate': HARNESS },
  },
  'json-schema-ref-no-deref': { checks: { 'sep-2106-no-network-ref-deref': covered('client.no-network-ref') } },
  'json-schema-2020-12-preservation': {
    checks: {
      // Judged the same way, through a client that passes the schema back (mcpspec's schema_echo, or the official names to a harness).
      ...each(['json-schema-2020-12-client-$schema-preserved', 'json-schema-2020-12-client-$defs-preserved', 'json-schema-2020-12-client-additionalProperties-preserved', 'sep-2106-client-composition-keywords-preserved', 'sep-2106-client-conditional-keywords-preserved', 'sep-2106-client-anchor-keyword-preserved'], covered('client.schema-keywords-kept')),
      ...each(['json-schema-2020-12-client-tool-found', 'json-schema-2020-12-client-echo-completed'], HARNESS),
    },
  },
  // Host verification of a loaded skill (digest, size, front matter) shows on the wire only once a host
  // loads a skill; no mcpspec run gives it a reason to (suites/skills/client-checks.ts).
  'sep-2640-client-no-prefetch': { checks: { 'sep-2640-host-no-prefetch': covered('client.skills-no-prefetch') } },
  'sep-2640-client-verify-digest': { checks: { 'sep-2640-host-verify-digest': HOST_LOAD } },
  'sep-2640-client-verify-size': { checks: { 'sep-2640-host-size-mismatch-failure': HOST_LOAD } },
  'sep-2640-client-verify-frontmatter': { checks: { 'sep-2640-host-frontmatter-comparison': HOST_LOAD } },
};

/** The official server and client scenarios (the `conformance server` and `conformance client` commands), by name. */
export const OFFICIAL_SCENARIOS: Readonly<Record<OfficialRole, Readonly<Record<string, OfficialScenario>>>> = { server: SERVER, client: CLIENT };
