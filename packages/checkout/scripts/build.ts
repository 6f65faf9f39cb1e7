// Writes dist/: checkout.js (the browser script), checkout.mjs (the ES module) and frame.js. The
// service serves these files (`@paygate/checkout/dist/*`); `npm run build`, `npm run dev`,
// `npm run shop` and the test runner run this first, so they never serve stale files.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { bundleCheckoutAssets } from './bundle.ts';

const dist = new URL('../dist/', import.meta.url);

/** Through a temporary file and a rename: a service reading meanwhile never sees half a file. */
function writeAtomically(name: string, contents: string): void {
  const temporary = new URL(`${name}.${process.pid}.tmp`, dist);
  writeFileSync(temporary, contents);
  renameSync(temporary, new URL(name, dist));
}

const assets = await bundleCheckoutAssets();
mkdirSync(dist, { recursive: true });
writeAtomically('checkout.js', assets.checkoutScript);
writeAtomically('checkout.mjs', assets.checkoutModule);
writeAtomically('frame.js', assets.frameScript);
if (!process.argv.includes('--quiet'))
  console.log('wrote dist/checkout.js, dist/checkout.mjs, dist/frame.js');
