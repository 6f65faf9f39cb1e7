/**
 * The dashboard's one stylesheet and one script, served from our own origin so that the
 * Content-Security-Policy can allow `'self'` and nothing else (no inline code, no CDN, no font).
 */
export { DASHBOARD_CSS } from './styles.ts';

/**
 * Progressive behaviour only: copy buttons, the browser's time zone, an invitation token from the
 * link's fragment. Every form is a plain form post that works without this script (the walk of
 * dashboard-forms-no-script-walk-browser.test.ts submits each one with JavaScript off).
 */
export const DASHBOARD_JS = `
(function () {
  // Copy buttons beside the ids and URLs that tables shorten: added by the script, so a page
  // without it shows no dead button (the full text is still in the page to select).
  var copyLabel = document.body.dataset.copy || 'Copy';
  var copiedLabel = document.body.dataset.copied || 'Copied';
  if (navigator.clipboard) {
    document.querySelectorAll('td code, .id').forEach(function (code) {
      var text = code.textContent || '';
      if (!text || code.querySelector('button')) return;
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = copyLabel;
      button.setAttribute('aria-label', copyLabel + ' ' + text);
      button.addEventListener('click', function () {
        navigator.clipboard.writeText(text).then(function () {
          button.textContent = copiedLabel;
          setTimeout(function () { button.textContent = copyLabel; }, 1500);
        });
      });
      var holder = code.parentElement && code.parentElement.tagName === 'A' ? code.parentElement : code;
      holder.insertAdjacentElement('afterend', button);
      code.setAttribute('title', text);
    });
  }
  // The browser's time zone, offered to the server as a cookie: the user's zone until they choose
  // one on the settings page (the server keeps the first it sees and never overwrites a choice).
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    var wanted = 'paygate_tz=' + encodeURIComponent(zone || '');
    if (zone && document.cookie.split('; ').indexOf(wanted) < 0)
      document.cookie = wanted + '; path=/dashboard; max-age=31536000; samesite=strict' + (location.protocol === 'https:' ? '; secure' : '');
  } catch (error) { /* no Intl time zone: the pages stay in UTC */ }
  var token = document.querySelector('input[name=token]');
  if (token && window.location.hash.length > 1) token.value = window.location.hash.slice(1);
})();
`;

/**
 * The pages' icon (a "P" on the primary colour), served beside the stylesheet: without one the
 * browser asks for /favicon.ico, whose 404 is an error in every page's console.
 */
export const DASHBOARD_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3538cd"/><path d="M11 24V8h6.5a5 5 0 0 1 0 10H15v6z" fill="#fff"/><path d="M15 11.5v3h2.3a1.5 1.5 0 0 0 0-3z" fill="#3538cd"/></svg>`;
