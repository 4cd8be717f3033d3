// The delay configurations test/integration/slow-server.test.ts leaves out (it runs the other three):
// stdio error answers held 2000 ms, and a 2025-11-25 stdio run with every answer held 1500 ms.
import { describeSlowServer, SLOW_CONFIGS } from '../helpers/slow-server-suite.js';

describeSlowServer(SLOW_CONFIGS.filter((c) => !(c.transport === 'http' || (c.version === '2026-07-28' && !c.errorsOnly))));
