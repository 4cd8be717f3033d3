// Dev script: print protocol/requirements-table.ts from the requirements digest and the authorization
// supplement. Run from the project root after a change to either:
//   npm run build && node dist/bin/vendor-requirements.js > protocol/requirements-table.ts
// Optional arguments: the digest's path (default ../shared/spec/requirements.md) and the supplement's.

import { readFileSync } from 'node:fs';
import { digestSource, parseRequirementTables, requirementsModule } from './requirements-digest.js';

const [digestPath = '../shared/spec/requirements.md', supplementPath = 'docs/requirements-authorization.md'] = process.argv.slice(2);
const digest = readFileSync(digestPath, 'utf8');
const rows = [...parseRequirementTables(digest), ...parseRequirementTables(readFileSync(supplementPath, 'utf8'), 'Authorization')];
process.stdout.write(requirementsModule(rows, digestSource(digest)));
