// mcpspec's stand-in for a user's browser, for clients under test that authorize by opening one
// (BROWSER, xdg-open and friends point here in the authorization scenarios): it loads the URL and
// follows its redirects, as a user who approves at once would, so the client's own callback gets
// the code. It only ever visits this machine (loopback hosts), and gives up after a few hops.
//   node headless-browser.js <url>

import { isLoopbackHost } from '../protocol/loopback.js';

const MAX_HOPS = 5;
const TIMEOUT_MS = 10_000;

async function visit(start: string): Promise<number> {
  let url = new URL(start);
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    if (!isLoopbackHost(url.hostname)) {
      process.stderr.write(`mcpspec headless browser: not visiting ${url.host} (only this machine)\n`);
      return 1;
    }
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.arrayBuffer().catch(() => undefined);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return 0;
    url = new URL(location, url);
  }
  return 0;
}

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: headless-browser.js <url>\n');
  process.exit(2);
}
visit(target).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`mcpspec headless browser: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
