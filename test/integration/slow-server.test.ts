// A slow server is judged exactly like a fast one (test/helpers/slow-server-suite.ts): three of the five
// delay configurations; the two other stdio ones run in test/e2e/slow-server-stdio.test.ts.
import { describeSlowServer, SLOW_CONFIGS } from '../helpers/slow-server-suite.js';

describeSlowServer(SLOW_CONFIGS.filter((c) => c.transport === 'http' || (c.version === '2026-07-28' && !c.errorsOnly)));
