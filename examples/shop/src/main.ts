// One command for the demo: `npm run shop`. It starts Paygate (embedded database, simulated
// gateway, test clock) unless PAYGATE_URL names a running one, sets up a merchant for the shop
// through the operator API, and serves the shop.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAKE_DEFAULTS, fakeGatewayEnvironment, parseShopGateway } from './gateways.ts';
import { findRunningPaygate, startLocalPaygate } from './local-paygate.ts';
import { provisionShop } from './provision.ts';
import { startShop } from './server.ts';

const shopPort = Number(process.env.SHOP_PORT ?? 3000);
// `--gateway stripe|adyen`: pay through that gateway's fake (`npm run fake:stripe` / `fake:adyen`).
const { values: args } = parseArgs({ options: { gateway: { type: 'string' } } });
const gateway = parseShopGateway(args.gateway);
if (gateway !== 'sim') {
  const fakeUrl = process.env.FAKE_GATEWAY_URL ?? FAKE_DEFAULTS[gateway].url;
  const variables = fakeGatewayEnvironment(gateway, fakeUrl, `http://localhost:${shopPort}/`);
  // What the operator set wins; the service reads the gateways' variables from its environment.
  for (const [name, value] of Object.entries(variables)) process.env[name] ??= value;
}
let paygateUrl = process.env.PAYGATE_URL?.replace(/\/+$/, '');
let adminToken = process.env.PAYGATE_ADMIN_TOKEN;
let stopPaygate = async () => {};

/** Ends the demo with one line that says what to do (no stack trace: nothing is broken). */
function stopWith(message: string): never {
  process.stderr.write(`npm run shop: ${message}\n`);
  process.exit(2);
}

if (!paygateUrl) {
  const port = Number(process.env.PORT ?? 8080);
  const running = await findRunningPaygate(port);
  if (running) {
    // The quick start leaves `npm start` running: use it rather than fail on its ports.
    adminToken ??= running.adminToken ?? undefined;
    if (!adminToken) {
      stopWith(
        `Paygate already runs on ${running.url}; use it with PAYGATE_URL=${running.url} PAYGATE_ADMIN_TOKEN=<its operator token> npm run shop, or start another with PORT=9080 PAYGATE_SIM_PORT=9081 npm run shop`,
      );
    }
    paygateUrl = running.url;
    process.stdout.write(`Using the Paygate already running on ${running.url}\n`);
  } else {
    try {
      const local = await startLocalPaygate({
        port,
        simPort: Number(process.env.PAYGATE_SIM_PORT ?? 8081),
        dataDir: resolve(process.env.PAYGATE_DATA_DIR ?? '.paygate/shop'),
        ...(adminToken ? { adminToken } : {}),
      });
      paygateUrl = local.url;
      adminToken = local.adminToken;
      stopPaygate = () => local.service.stop();
    } catch (error) {
      stopWith(error instanceof Error ? error.message : String(error));
    }
  }
}
if (!adminToken) stopWith('PAYGATE_ADMIN_TOKEN is required with PAYGATE_URL (the shop registers itself)');

const credentials = await provisionShop({
  paygateUrl,
  adminToken,
  // Both names of this machine, so the page works whichever one the browser shows.
  shopOrigins: [`http://localhost:${shopPort}`, `http://127.0.0.1:${shopPort}`],
  webhookUrl: `http://127.0.0.1:${shopPort}/webhooks/paygate`,
});
const running = await startShop({ paygateUrl, ...credentials, port: shopPort, gatewayId: gateway });

process.stdout.write(
  `\nDemo shop: ${running.url}  (Paygate: ${paygateUrl}, merchant ${credentials.merchantId}, gateway ${gateway})\n` +
    (gateway === 'adyen'
      ? 'Pay with 4111 1111 4555 1142 (approved; the name REFUSED declines) or 4212 3456 7891 0006\n' +
        '(bank confirmation), any future date and code. Ctrl-C stops everything.\n'
      : 'Pay with 4242 4242 4242 4242 (approved), 4000 0000 0000 3220 (bank confirmation) or\n' +
        '4000 0000 0000 0002 (declined), any future date and code. Ctrl-C stops everything.\n'),
);
const stop = async () => {
  await running.close();
  await stopPaygate();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
