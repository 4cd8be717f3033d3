// Real MCP clients that are not devDependencies, installed on first use into .cache/ at exact versions:
// the Inspector 2.x CLI needs Node 22 (its engines say >=22.19) and carries its own SDK copies, and
// mcp-remote's client is an HTTP client with its own SDK 1.x copy. Used by the e2e tests and `npm run bench client`.

import { join } from 'node:path';
import { cachedPackage } from './npm-cache.js';
import { node22 } from './node22.js';

export const MCP_REMOTE_PACKAGE = 'mcp-remote@0.15.1';
export const INSPECTOR2_PACKAGE = '@modelcontextprotocol/inspector@2.12.0';

/** `node <mcp-remote>/dist/client.js` (the `mcp-remote-client` bin); its first argument is the server URL. */
export function mcpRemoteClient(): { command: string; args: string[] } {
  return { command: process.execPath, args: [join(cachedPackage(MCP_REMOTE_PACKAGE, 'mcp-remote'), 'dist', 'client.js')] };
}

/** mcp-remote's proxy (the `mcp-remote` bin, `proxy.js <url>`): a stdio MCP server to its client, an HTTP client to <url>. */
export function mcpRemoteProxy(): string {
  return join(cachedPackage(MCP_REMOTE_PACKAGE, 'mcp-remote'), 'dist', 'proxy.js');
}

/** The Inspector 2.x CLI (`mcp-inspector --cli`, i.e. clients/cli/build/index.js) on the Node 22 binary. */
export function inspector2Cli(): { command: string; args: string[] } {
  // Its postinstall only installs per-client dependencies in a source checkout; the published build needs none.
  const root = cachedPackage(INSPECTOR2_PACKAGE, 'inspector2', { ignoreScripts: true });
  return { command: node22(), args: [join(root, 'clients', 'cli', 'build', 'index.js')] };
}
