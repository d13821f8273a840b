/**
 * `npx tsx scripts/check-links.ts` (`npm run lint:links`): checks every relative link and anchor of README.md,
 * docs/*.md, bench/README.md, mocks/README.md, data/README.md and CHANGELOG.md (the rules: scripts/checkLinks.ts).
 * Prints every broken link as `file:line: link — why` and exits 1; prints one line and exits 0 when all resolve.
 */
import path from 'node:path';
import { checkLinks, DOCUMENTS, formatBroken } from './checkLinks';

const root = path.resolve(__dirname, '..');
const broken = checkLinks(root, DOCUMENTS);
if (broken.length > 0) {
  process.stderr.write(`${formatBroken(broken)}\n${broken.length} broken link${broken.length === 1 ? '' : 's'}\n`);
  process.exit(1);
}
process.stdout.write(`links: every relative link and anchor of ${DOCUMENTS.join(', ')} resolves\n`);
