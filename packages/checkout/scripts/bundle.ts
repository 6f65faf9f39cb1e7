import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The browser files of the checkout, built from the TypeScript sources. */
export interface CheckoutAssets {
  /** `<checkout url>/v1/checkout.js`: defines `window.Paygate`. */
  checkoutScript: string;
  /** The same component as an ES module, for bundlers (`dist/checkout.mjs`). */
  checkoutModule: string;
  /** The hosted frame's script, `<checkout url>/v1/frame.js`. */
  frameScript: string;
}

const source = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

async function bundle(entry: string, format: 'iife' | 'esm'): Promise<string> {
  const result = await build({
    entryPoints: [source(entry)],
    bundle: true,
    format,
    platform: 'browser',
    // Browsers of the last few years; the frame uses ResizeObserver and Intl, nothing newer.
    target: 'es2020',
    minify: format === 'iife',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  return output.text;
}

/** Builds the three browser files in memory (about 50 ms); the service does this once at start. */
export async function bundleCheckoutAssets(): Promise<CheckoutAssets> {
  const [checkoutScript, checkoutModule, frameScript] = await Promise.all([
    bundle('global.ts', 'iife'),
    bundle('index.ts', 'esm'),
    bundle('frame/main.ts', 'iife'),
  ]);
  return { checkoutScript, checkoutModule, frameScript };
}
