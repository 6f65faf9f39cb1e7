/** What the shop needs from Paygate, set up through the operator API (the "back office"). */
export interface ShopCredentials {
  merchantId: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

async function admin(paygateUrl: string, adminToken: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${paygateUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

function field(value: unknown, ...path: string[]): string {
  let current = value;
  for (const key of path) {
    current =
      typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : null;
  }
  if (typeof current !== 'string') throw new Error(`the operator API answered without ${path.join('.')}`);
  return current;
}

/**
 * A merchant for the shop: its keys, its embed domains (the origins the shop's pages are served
 * from) and a test-mode webhook endpoint pointing at the shop.
 */
export async function provisionShop(options: {
  paygateUrl: string;
  adminToken: string;
  shopOrigins: string[];
  webhookUrl: string;
  name?: string;
}): Promise<ShopCredentials> {
  const { paygateUrl, adminToken } = options;
  const merchant = await admin(paygateUrl, adminToken, '/admin/v1/merchants', {
    name: options.name ?? 'Demo shop',
  });
  const merchantId = field(merchant, 'id');
  for (const origin of options.shopOrigins) {
    await admin(paygateUrl, adminToken, `/admin/v1/merchants/${merchantId}/embed-domains`, { origin });
  }
  const endpoint = await admin(
    paygateUrl,
    adminToken,
    `/admin/v1/merchants/${merchantId}/webhook-endpoints`,
    {
      url: options.webhookUrl,
      livemode: false,
    },
  );
  return {
    merchantId,
    secretKey: field(merchant, 'api_keys', 'secret_test'),
    publishableKey: field(merchant, 'api_keys', 'publishable_test'),
    webhookSecret: field(endpoint, 'secret'),
  };
}
