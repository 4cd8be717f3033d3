// Dev script: print protocol/requirements-table.ts from the requirements digest and the project's
// supplements (bin/requirements-digest.ts SUPPLEMENTS). Run from the project root after a change to any:
//   npm run build && node dist/bin/vendor-requirements.js > protocol/requirements-table.ts
// Optional argument: the digest's path (default ../shared/spec/requirements.md).

import { readFileSync } from 'node:fs';
import { allRequirementRows, digestSource, requirementsModule } from './requirements-digest.js';

const [digestPath = '../shared/spec/requirements.md'] = process.argv.slice(2);
const digest = readFileSync(digestPath, 'utf8');
const rows = allRequirementRows(digest, (path) => readFileSync(path, 'utf8'));
process.stdout.write(requirementsModule(rows, digestSource(digest)));
