/** The frame's HTML shell; its script (`frame.js`, same origin) draws everything inside #app. */
export interface FramePageConfig {
  mode: 'checkout' | 'denied' | 'invalid_key';
  parentOrigin: string;
  publishableKey: string;
  locale: string;
}

/** JSON that is safe inside a <script> data block (no "</script>", no U+2028 surprises). */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const style = `
  :root { color-scheme: light; --ink: #1a1a1a; --muted: #555; --line: #d4d4d8; --accent: #1d4ed8; --accent-ink: #fff;
    --bad: #b00020; --good: #166534; --focus: #f59e0b; }
  * { box-sizing: border-box; }
  body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 16px; color: var(--ink); background: #fff; }
  h1 { font-size: 1.15rem; margin: 0 0 12px; }
  h1:focus { outline: none; }
  p { margin: 0 0 12px; }
  .status { color: var(--muted); }
  .form-header { display: flex; align-items: baseline; justify-content: space-between; gap: 12px; margin-bottom: 12px; }
  .form-header h1 { margin: 0; }
  .amount { margin: 0; font-size: 1.15rem; font-weight: 700; font-variant-numeric: tabular-nums; }
  .card-fields { margin: 0 0 4px; }
  .card-fields iframe.hosted-fields { display: block; width: 100%; height: 260px; border: 0; }
  .help { color: var(--muted); font-size: 0.8rem; margin: 10px 0 0; }
  .consent { font-size: 0.85rem; margin: 0 0 12px; }
  .error { color: var(--bad); font-size: 0.9rem; margin: 0 0 8px; }
  .error:empty { display: none; }
  .actions { display: flex; gap: 8px; flex-wrap: wrap; }
  button, a.button { font: inherit; padding: 11px 20px; border-radius: 8px; cursor: pointer; text-decoration: none; display: inline-block; }
  button.primary, a.button { background: var(--accent); color: var(--accent-ink); border: 1px solid var(--accent); font-weight: 600; }
  #pay { flex: 1 1 12rem; }
  button.secondary { background: #fff; color: var(--ink); border: 1px solid #8a8a8a; }
  button[aria-disabled="true"] { opacity: 0.65; cursor: progress; }
  button:focus-visible, a.button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .message { border-left: 4px solid var(--muted); padding: 4px 0 4px 12px; }
  .message .button, .message button { margin-top: 4px; }
  .message-succeeded, .message-processing { border-color: var(--good); }
  .message-declined, .message-expired, .message-session_invalid, .message-denied { border-color: var(--bad); }
  .message-requires_action { border-color: var(--accent); }
`;

export function framePage(config: FramePageConfig, nonce: string): string {
  const lang = config.locale.toLowerCase().startsWith('es') ? 'es' : 'en';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${lang === 'es' ? 'Pago seguro' : 'Secure checkout'}</title>
<style nonce="${nonce}">${style}</style>
<script type="application/json" id="paygate-frame-config">${scriptLiteral(config)}</script>
<script src="frame.js" defer></script>
</head>
<body data-state="loading">
<main id="app" aria-live="polite"></main>
</body>
</html>
`;
}

/**
 * Only the merchant's registered origins may frame this page; it runs only its own script and the
 * gateways' card component scripts, talks only to this service and to those gateways, and frames
 * only the gateways' card fields.
 */
export function frameCsp(options: {
  frameAncestors: string[];
  /** Every gateway's card entry origin (its fields are framed). */
  gatewayOrigins: string[];
  /** The origins of gateways whose card component is a script the frame loads (Stripe.js, Adyen Web). */
  componentScriptOrigins?: string[];
  nonce: string;
}): string {
  const frameSrc = options.gatewayOrigins.length ? options.gatewayOrigins.join(' ') : "'none'";
  const ancestors = options.frameAncestors.length ? options.frameAncestors.join(' ') : "'none'";
  const scripts = (options.componentScriptOrigins ?? []).map((origin) => ` ${origin}`).join('');
  return [
    "default-src 'none'",
    `script-src 'self'${scripts}`,
    // A component may bring its stylesheet (Adyen Web's adyen.css) from its origin.
    `style-src 'nonce-${options.nonce}'${scripts}`,
    `connect-src 'self'${scripts}`,
    `frame-src ${frameSrc}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}
