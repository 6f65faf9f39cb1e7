// Writes the reference clients' resource classes from the contract (scripts/clients/): TypeScript,
// Python, PHP and Java. `--check` fails when a committed file differs from what it would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT, renderClients } from './clients/render.ts';

const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [path, content] of renderClients()) {
  const target = join(REPOSITORY_ROOT, path);
  let committed: string | null = null;
  try {
    committed = readFileSync(target, 'utf8');
  } catch {}
  if (committed === content) continue;
  if (check) stale.push(path);
  else {
    writeFileSync(target, content);
    console.log(`wrote ${path}`);
  }
}
if (stale.length > 0) {
  console.error(`stale generated client files (run \`npm run clients\`):\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
