import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export interface ServedAsset {
  body: string;
  /** A strong validator from the content, so browsers revalidate cheaply after max-age. */
  etag: string;
}

export interface ServedCheckoutAssets {
  checkoutScript: ServedAsset;
  checkoutModule: ServedAsset;
  frameScript: ServedAsset;
}

function served(body: string): ServedAsset {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** A file of the checkout package's build output (`npm run build -w @paygate/checkout`). */
async function builtFile(name: string): Promise<string> {
  const url = import.meta.resolve(`@paygate/checkout/dist/${name}`);
  try {
    return await readFile(new URL(url), 'utf8');
  } catch (error) {
    throw new Error(
      `the checkout's browser files are not built (${name}): run \`npm run build -w @paygate/checkout\``,
      { cause: error },
    );
  }
}

let loading: Promise<ServedCheckoutAssets> | null = null;

/**
 * The browser files, read once per process from the checkout package's build output. Every way of
 * running the service builds them first (`npm run build`, `npm run dev`, the test runner), so
 * `/checkout/v1/checkout.js` is the component of this very checkout.
 */
export function checkoutAssets(): Promise<ServedCheckoutAssets> {
  loading ??= Promise.all([builtFile('checkout.js'), builtFile('checkout.mjs'), builtFile('frame.js')]).then(
    ([checkoutScript, checkoutModule, frameScript]) => ({
      checkoutScript: served(checkoutScript),
      checkoutModule: served(checkoutModule),
      frameScript: served(frameScript),
    }),
  );
  // A failed read is not cached: the next request tries again.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
