// client.*, stdio: a client under test that starts its server over stdio. It starts a dead server
// again (IO-06), serves one that logs to stderr as one that does not (IO-03) (client-scenarios.ts
// beside it), and writes one JSON-RPC message per line to the server's stdin, over the whole run (IO-01, IO-02).

import { isObj } from '../../../protocol/jsonrpc.js';
import { SPEC } from '../../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../../protocol/versions.js';
import { check, holds, oracle, untestable, violated } from '../../kit/check.js';
import { describeExit } from '../../kit/client-exit.js';
import { every } from '../../kit/judge.js';
import { clip } from '../../kit/exchange.js';
import { endedBadly, ev, isRequest, targetOf, withoutPings, type Msg } from '../../client/client-reading.js';
import { dyingServer, stderrLogs } from './client-scenarios.js';

const restartsDeadServer = check(dyingServer, {
  id: 'client.restarts-dead-server',
  title: 'a client whose stdio server process exited unexpectedly starts it again',
  requirements: ['IO-06'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC.stdio26,
  judge(o) {
    const death = o.received.find((r) => r.died);
    if (!death) return untestable('the client sent no request after server/discover, so the server never died');
    const m = death.message as Msg;
    const what = `${String(m.method)} (id ${JSON.stringify(m.id)})`;
    const crashed = endedBadly(o, 'after its server exited');
    if (crashed) return crashed;
    // A restart is a server process whose first message came after the death (not one already running).
    const firstSeq = new Map<number, number>();
    for (const r of o.received) if (!firstSeq.has(r.connection)) firstSeq.set(r.connection, r.seq);
    const later = o.received.filter((r) => r.connection !== death.connection && firstSeq.get(r.connection)! > death.seq);
    if (later.length === 0) {
      return violated(`the server process exited on ${what}; the client never started it again (it ${describeExit(o.exit)})`,
        [ev(`${what}: the server process exited instead of answering`, death, { expected: 'a new server process', actual: `none; the client ${describeExit(o.exit)}` })]);
    }
    const retried = later.find((r) => isRequest(r.message) && r.message.method === m.method && targetOf(r.message.params) === targetOf(m.params));
    return holds(`the server process exited on ${what}; the client started it again (process ${later[0].connection})${retried ? ` and sent ${String(m.method)} again there` : ''}`,
      [ev('the request the server died on', death), ev('the first message to the new process', later[0])]);
  },
});

const stderrIgnored = check(stderrLogs, {
  id: 'client.stderr-not-error',
  title: 'a server that logs to stderr is served as one that does not: the same requests, the same exit',
  requirements: ['IO-03'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC.stdio26,
  judge(o) {
    if (!o.plain) return untestable('no run against the plain server to compare with');
    const crashed = endedBadly(o, 'beside a server logging to stderr');
    if (crashed) return crashed;
    const methods = o.received.map((r) => (isObj(r.message) && typeof r.message.method === 'string' ? r.message.method : undefined)).filter((m): m is string => m !== undefined);
    const missing = [...new Set(withoutPings(o.plain.methods))].filter((m) => !methods.includes(m));
    if (o.exit.exitCode !== o.plain.exit.exitCode || o.exit.timedOut !== o.plain.exit.timedOut) {
      return violated(`the client ${describeExit(o.exit)} when the server logged to stderr, but ${describeExit(o.plain.exit)} when it did not`, [{ what: 'methods (server logging to stderr)', actual: methods, expected: o.plain.methods }, { what: 'client stderr', actual: o.exit.stderrTail.slice(-400) }]);
    }
    if (missing.length) return violated(`the client never sent ${missing.join(', ')} when the server logged to stderr (it did without the logs)`, [{ what: 'methods', actual: methods, expected: o.plain.methods }]);
    return holds(`${methods.length} messages and the same exit (${describeExit(o.exit)}) with the server logging to stderr`);
  },
});

const stdioLines = oracle({
  id: 'client.stdio-lines',
  title: 'every line the client writes to its server\'s stdin is one JSON-RPC message (no log lines, no message over several lines)',
  requirements: ['IO-01', 'IO-02'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC.stdio26,
  judge(obs) {
    // A batch array is a message array (client.no-batch judges it); anything else that is no JSON-RPC message breaks the framing.
    return every(obs.events.filter((e) => e.dir === 'in' && e.channel === 'stdio' && e.raw !== undefined), {
      none: 'the client wrote nothing to a server it started',
      offends: (e) => e.kind !== 'message' && !Array.isArray(e.message),
      violated: (bad, lines) => {
        const first = bad[0];
        const why = first.kind === 'noise' ? 'is not JSON (a log line, or one line of a message written over several)' : 'is JSON but no JSON-RPC message';
        return `${bad.length} of ${lines.length} lines on stdin are not JSON-RPC messages; the first ${why}: ${JSON.stringify(clip(first.raw ?? '', 80))}`;
      },
      evidence: (e) => ({ what: e.kind === 'noise' ? 'a line that is not JSON' : 'JSON that is no JSON-RPC message', actual: clip(e.raw ?? '', 300), seq: [e.seq] }),
      holds: (lines) => `${lines.length} lines on stdin, each one JSON-RPC message`,
    });
  },
});

export const stdioClientChecks = [restartsDeadServer, stderrIgnored, stdioLines];
