// capabilities.*: what a server did not declare, it does not serve (CAP-01).

import { SPEC } from '../protocol/spec-links.js';
import { LEGACY } from '../protocol/versions.js';
import { check, untestable } from './check.js';
import { expectErrorCode } from './exchange.js';
import { undeclaredCapability } from './scenarios/undeclared-capability.js';

export const capabilitiesChecks = [
  check(undeclaredCapability, {
    id: 'capabilities.undeclared-method',
    title: 'a method of a capability the server did not declare gets -32601',
    requirements: ['CAP-01'],
    level: 'MUST',
    versions: LEGACY,
    spec: SPEC.basic25,
    judge({ probe }) {
      if (!probe) return untestable('the server declares every gated capability mcpspec knows (logging, completions, prompts, resources, tools)');
      return expectErrorCode(probe.exchange, -32601, `${probe.method} without the ${probe.capability} capability`, `${probe.method} (capability ${probe.capability} not declared) got -32601`);
    },
  }),
];
