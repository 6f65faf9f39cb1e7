import { createHash } from 'node:crypto';
import { bundleCheckoutAssets } from '@paygate/checkout/bundle';

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

let building: Promise<ServedCheckoutAssets> | null = null;

/**
 * The browser files, built once per process from the component's sources (the service and the
 * component are always the same version, so `/checkout/v1/checkout.js` never drifts from them).
 */
export function checkoutAssets(): Promise<ServedCheckoutAssets> {
  building ??= bundleCheckoutAssets().then((assets) => ({
    checkoutScript: served(assets.checkoutScript),
    checkoutModule: served(assets.checkoutModule),
    frameScript: served(assets.frameScript),
  }));
  // A failed build is not cached: the next request tries again.
  building.catch(() => {
    building = null;
  });
  return building;
}
