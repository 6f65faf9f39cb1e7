// escape-html escapes & < > " ' for element content and quoted attribute values.
import escapeHtml from 'escape-html';
import type { ChargeResource } from './ledger.ts';

const baseStyle = `
  body { font: 16px/1.4 system-ui, sans-serif; margin: 0; padding: 12px; color: #1a1a1a; }
  label { display: block; font-weight: 600; margin-bottom: 4px; }
  input { font: inherit; padding: 8px; width: 100%; box-sizing: border-box; border: 1px solid #767676; border-radius: 4px; }
  input[aria-invalid="true"] { border-color: #b00020; }
  button { font: inherit; padding: 8px 16px; margin: 8px 8px 0 0; border-radius: 4px; border: 1px solid #1a1a1a; background: #fff; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .hint { color: #4a4a4a; font-size: 14px; margin: 4px 0; }
  .error { color: #b00020; font-size: 14px; margin: 4px 0; min-height: 1.4em; }
`;

/** "12.34 USD" from minor units, with the currency's exponent as the platform knows it. */
export function formatAmount(amountMinor: number, currency: string): string {
  let exponent = 2;
  try {
    exponent =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
  } catch {
    // An unknown code keeps two decimals; the amount is shown only to the payer.
  }
  if (exponent === 0) return `${amountMinor} ${currency}`;
  const digits = String(amountMinor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)} ${currency}`;
}

function page(title: string, nonce: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${baseStyle} main { max-width: 32rem; margin: 2rem auto; }</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

/** The payer's authentication step: one form, two buttons, no script. */
export function challengePage(charge: ChargeResource, nonce: string): string {
  const amount = escapeHtml(formatAmount(charge.amount_minor, charge.currency));
  if (charge.status !== 'requires_action') {
    const next = charge.return_url
      ? `<p><a href="${escapeHtml(continueUrl(charge))}">Return to the merchant</a></p>`
      : '';
    return page(
      'Payment already completed',
      nonce,
      `<h1>Payment already completed</h1>\n<p>This payment of ${amount} is ${escapeHtml(charge.status)}.</p>\n${next}`,
    );
  }
  return page(
    'Confirm your payment',
    nonce,
    `<h1>Confirm your payment</h1>
<p>Simulated authentication of a payment of <strong>${amount}</strong>.</p>
<p class="hint">Reference ${escapeHtml(charge.reference)}</p>
<form method="post" action="${escapeHtml(charge.id)}">
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="decline">Decline</button>
</form>`,
  );
}

/** Shown when the charge has no return_url to send the payer back to. */
export function donePage(charge: ChargeResource, nonce: string): string {
  const outcome = charge.status === 'succeeded' ? 'approved' : 'declined';
  return page(`Payment ${outcome}`, nonce, `<h1>Payment ${outcome}</h1>\n<p>You can close this window.</p>`);
}

export function messagePage(title: string, message: string, nonce: string): string {
  return page(title, nonce, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

/** The charge's return_url with `payment_intent=<reference>` added. */
export function continueUrl(charge: ChargeResource): string {
  if (!charge.return_url) throw new Error('the charge has no return_url');
  const url = new URL(charge.return_url);
  url.searchParams.set('payment_intent', charge.reference);
  return url.toString();
}
