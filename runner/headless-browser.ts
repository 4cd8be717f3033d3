// mcpspec's stand-in for a user's browser, for clients under test that open one (BROWSER, xdg-open
// and friends point here in the scenarios that ask for it, Scenario.headlessBrowser): it loads the
// URL and follows its redirects, as a user who approves at once would, so the client's own callback
// is loaded. It only ever visits this machine (loopback hosts), and gives up after a few hops. A
// refused connection is tried again for a few seconds: a person takes at least that long to sign in,
// and some clients start their callback server only after opening the browser.
// With a report URL it then posts there what became of the visit: the URLs it loaded and whether the
// last one (the client's callback) answered, so a check can tell a client that refused what its
// callback got from one that never received it (the HTTP listener hands the visit to the scenario).
//   node headless-browser.js <url> [report-url]

import { isLoopbackHost } from '../protocol/loopback.js';
import type { BrowserVisit } from '../suites/ports/scripted-http.js';

const MAX_HOPS = 5;
const TIMEOUT_MS = 10_000;
/** How long a refused connection is tried again, and how often. */
const REFUSED_GRACE_MS = 5_000;
const REFUSED_RETRY_MS = 200;

/** Why a fetch failed: fetch says only "fetch failed"; the cause has it (an AggregateError when several addresses were tried). */
function failure(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
}

/** Load a URL; a refused connection is tried again until REFUSED_GRACE_MS have passed. */
async function load(url: URL): Promise<Response> {
  const since = Date.now();
  for (;;) {
    try {
      return await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (e) {
      if (failure(e) !== 'ECONNREFUSED' || Date.now() - since >= REFUSED_GRACE_MS) throw e;
      await new Promise((r) => setTimeout(r, REFUSED_RETRY_MS));
    }
  }
}

async function visit(start: string, visited: string[]): Promise<{ code: number; status?: number; error?: string }> {
  let url = new URL(start);
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    if (!isLoopbackHost(url.hostname)) {
      process.stderr.write(`mcpspec headless browser: not visiting ${url.host} (only this machine)\n`);
      return { code: 1, error: `not visiting ${url.host} (only this machine)` };
    }
    visited.push(url.href);
    let res: Response;
    try {
      res = await load(url);
    } catch (e) {
      const error = failure(e);
      process.stderr.write(`mcpspec headless browser: ${url.href}: ${error}\n`);
      return { code: 1, error };
    }
    await res.arrayBuffer().catch(() => undefined);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { code: 0, status: res.status };
    url = new URL(location, url);
  }
  return { code: 0, error: `more than ${MAX_HOPS} redirects` };
}

async function report(to: string, body: BrowserVisit): Promise<void> {
  if (!isLoopbackHost(new URL(to).hostname)) return;
  await fetch(to, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) })
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);
}

const [target, reportUrl] = process.argv.slice(2);
if (!target) {
  process.stderr.write('usage: headless-browser.js <url> [report-url]\n');
  process.exit(2);
}
const visited: string[] = [];
visit(target, visited)
  .catch((e: unknown) => ({ code: 1, status: undefined, error: e instanceof Error ? e.message : String(e) }))
  .then(async (r) => {
    if (reportUrl) await report(reportUrl, { visited, ...(r.status !== undefined ? { status: r.status } : {}), ...(r.error !== undefined ? { error: r.error } : {}) });
    process.exit(r.code);
  });
