// Writes dist/: checkout.js (the browser script), checkout.mjs (the ES module) and frame.js.
import { mkdirSync, writeFileSync } from 'node:fs';
import { bundleCheckoutAssets } from './bundle.ts';

const dist = new URL('../dist/', import.meta.url);
const assets = await bundleCheckoutAssets();
mkdirSync(dist, { recursive: true });
writeFileSync(new URL('checkout.js', dist), assets.checkoutScript);
writeFileSync(new URL('checkout.mjs', dist), assets.checkoutModule);
writeFileSync(new URL('frame.js', dist), assets.frameScript);
console.log('wrote dist/checkout.js, dist/checkout.mjs, dist/frame.js');
