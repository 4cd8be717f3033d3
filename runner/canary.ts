// A canary: a plain HTTP listener on 127.0.0.1 (a port chosen at run time) that answers every request
// with a small JSON Schema and keeps who asked. A scenario hands its URL to the client under test
// somewhere no client should fetch from (a network `$ref`, SEP-2106); any request is the evidence.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Canary, CanaryHit } from '../suites/ports/scripted-server.js';

/** Listens until `signal` aborts; the URL names a path of its own so a hit is unmistakable. */
export async function openCanary(signal: AbortSignal): Promise<Canary> {
  const hits: CanaryHit[] = [];
  const server = createServer((req, res) => {
    const ua = req.headers['user-agent'];
    hits.push({ method: req.method ?? '', path: req.url ?? '', ...(typeof ua === 'string' ? { userAgent: ua } : {}), at: Date.now() });
    req.resume();
    // A realistic schema, so that a client that fetches it has no error to stumble on.
    res.writeHead(200, { 'Content-Type': 'application/schema+json' }).end(JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { displayName: { type: 'string' } } }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  if (signal.aborted) close();
  else signal.addEventListener('abort', close, { once: true });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcpspec-canary/profile.schema.json`, hits: () => [...hits] };
}
