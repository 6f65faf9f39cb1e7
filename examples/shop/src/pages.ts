// escape-html escapes & < > " ' for element content and quoted attribute values.
import escapeHtml from 'escape-html';
import type { Order } from './orders.ts';

/** JSON that is safe inside an inline <script>. */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

function layout(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Demo shop</title>
<style nonce="${nonce}">
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  header { border-bottom: 1px solid #ddd; margin-bottom: 1.5rem; }
  button { font: inherit; padding: 10px 18px; border-radius: 6px; border: 1px solid #1a1a1a; background: #fff; cursor: pointer; }
  #checkout { border: 1px solid #ddd; border-radius: 8px; margin: 1rem 0; }
  .outcome { font-weight: 600; }
  code { background: #f4f4f4; padding: 0 4px; }
</style>
</head>
<body>
<header><p><a href="/">Demo shop</a> · a merchant site that takes payments with Paygate</p></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function formatPrice(amountMinor: number, currency: string): string {
  return `${(amountMinor / 100).toFixed(2)} ${currency}`;
}

export function homePage(nonce: string): string {
  return layout(
    'Shop',
    nonce,
    `<h1>Paygate T-shirt</h1>
<p>Soft, grey, and paid for with a test card. Price: <strong>${formatPrice(2500, 'USD')}</strong>.</p>
<form method="post" action="/orders">
  <input type="hidden" name="amount_minor" value="2500">
  <input type="hidden" name="currency" value="USD">
  <button type="submit">Buy now</button>
</form>
<p>Test cards: <code>4242 4242 4242 4242</code> (approved), <code>4000 0000 0000 3220</code> (bank
confirmation), <code>4000 0000 0000 0002</code> (declined), with any future expiry date, any
3-digit code and any name.</p>`,
  );
}

/**
 * The payment page: it loads the versioned component from the service and mounts it with the
 * client secret. The page's own CSP lets it talk to nothing but its own origin: it could not call
 * the Paygate API even if it tried.
 */
export function payPage(
  order: Order,
  options: { checkoutUrl: string; publishableKey: string; locale: string; nonce: string },
): string {
  const data = {
    orderId: order.id,
    publishableKey: options.publishableKey,
    clientSecret: order.clientSecret,
    locale: options.locale,
  };
  return layout(
    `Pay for ${order.id}`,
    options.nonce,
    `<h1>Pay for your order</h1>
<p>Order <strong>${escapeHtml(order.id)}</strong>: ${escapeHtml(formatPrice(order.amountMinor, order.currency))}.</p>
<div id="checkout"></div>
<p id="outcome" class="outcome" role="status" aria-live="polite"></p>
<p id="confirmation" role="status" aria-live="polite"></p>
<script src="${escapeHtml(options.checkoutUrl)}/v1/checkout.js"></script>
<script nonce="${options.nonce}">
(() => {
  const data = ${scriptLiteral(data)};
  const outcome = document.getElementById('outcome');
  // Every callback is kept for anyone reading the page (and for the shop's browser tests).
  window.shopCheckoutEvents = [];
  const record = (type, detail) => window.shopCheckoutEvents.push({ type, ...detail });
  const watchOrder = () => {
    const confirmation = document.getElementById('confirmation');
    const poll = async () => {
      const response = await fetch('/orders/' + encodeURIComponent(data.orderId) + '/status');
      const status = await response.json();
      if (status.payment_status === 'SUCCEEDED') {
        confirmation.textContent = 'Order paid: confirmed by the payment_intent.succeeded webhook.';
        return;
      }
      if (status.payment_status === 'FAILED') {
        confirmation.textContent = 'Payment failed: reported by the webhook.';
        return;
      }
      confirmation.textContent = 'Waiting for the webhook to confirm the payment…';
      setTimeout(poll, 500);
    };
    poll();
  };
  const paygate = Paygate(data.publishableKey);
  const handle = paygate.checkout({
    clientSecret: data.clientSecret,
    container: '#checkout',
    locale: data.locale,
    onSuccess: (result) => {
      record('success', result);
      outcome.textContent = 'Thank you! Payment ' + result.paymentIntentId + ' was accepted.';
      watchOrder();
    },
    onError: (error) => {
      record('error', error);
      // A decline is shown in the checkout, which offers another card: said once, there.
      outcome.textContent =
        error.code === 'payment_failed' ? '' : 'Payment not completed (' + error.code + '): ' + error.message;
    },
    // "Try another card": the shop's server creates a new intent for the order and hands back its
    // client secret; the checkout starts over on it, on this same page.
    onRetry: async ({ failedPaymentIntentId }) => {
      record('retry', { failedPaymentIntentId });
      const response = await fetch('/orders/' + encodeURIComponent(data.orderId) + '/retry', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ failed_payment_intent_id: failedPaymentIntentId }),
      });
      if (!response.ok) throw new Error('the shop could not start a new payment');
      return (await response.json()).client_secret;
    },
    onCancel: () => {
      record('cancel', {});
      outcome.textContent = 'Payment canceled.';
      handle.unmount();
    },
  });
})();
</script>`,
  );
}

/** Where the gateway sends the payer back after a bank confirmation; the webhook decides. */
export function returnPage(order: Order, paymentIntentId: string, nonce: string): string {
  return layout(
    'Back from your bank',
    nonce,
    `<h1>Back from your bank</h1>
<p>Order <strong>${escapeHtml(order.id)}</strong>, payment <code id="payment-intent">${escapeHtml(paymentIntentId)}</code>.</p>
<p id="confirmation" role="status" aria-live="polite">Waiting for the webhook to confirm the payment…</p>
<script nonce="${nonce}">
(() => {
  const orderId = ${scriptLiteral(order.id)};
  const confirmation = document.getElementById('confirmation');
  const poll = async () => {
    const status = await (await fetch('/orders/' + encodeURIComponent(orderId) + '/status')).json();
    if (status.payment_status === 'SUCCEEDED') {
      confirmation.textContent = 'Order paid: confirmed by the payment_intent.succeeded webhook.';
    } else if (status.payment_status === 'FAILED') {
      confirmation.textContent = 'Payment failed: reported by the webhook.';
    } else {
      setTimeout(poll, 500);
    }
  };
  poll();
})();
</script>`,
  );
}

export function messagePage(title: string, message: string, nonce: string): string {
  return layout(title, nonce, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
