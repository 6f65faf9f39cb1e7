/**
 * The dashboard's one stylesheet and one script, served from our own origin so that the
 * Content-Security-Policy can allow `'self'` and nothing else (no inline code, no CDN, no font).
 */
export const DASHBOARD_CSS = `
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; }
body { margin: 0; }
a { color: #0b57d0; }
a:focus, button:focus, input:focus, select:focus { outline: 3px solid #0b57d0; outline-offset: 2px; }
.skip, .skip-visually { position: absolute; left: -9999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .75rem 1.5rem; background: #f2f4f7; border-bottom: 1px solid #d0d5dd; }
header nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.mode-live { background: #fdecea; }
.mode { font-weight: 600; }
main { padding: 1.5rem; max-width: 70rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #d0d5dd; }
form.inline { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin-bottom: 1rem; }
label { display: flex; flex-direction: column; gap: .2rem; font-size: .9rem; }
input, select, button { font: inherit; padding: .35rem .5rem; }
button { background: #0b57d0; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
button.secondary { background: #475467; }
[role=alert], [role=status] { margin: .75rem 0; font-weight: 600; }
[role=alert] { color: #b42318; } [role=status] { color: #067647; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dt { font-weight: 600; }
code { word-break: break-all; }
.banner { border: 2px solid #b42318; background: #fef3f2; color: #7a271a; padding: .5rem 1rem; margin-bottom: 1rem; }
.banner ul { margin: .25rem 0; padding-left: 1.2rem; }
fieldset { border: 1px solid #d0d5dd; margin: 0 0 1rem; }
fieldset label { flex-direction: row; align-items: center; }
pre { background: #f2f4f7; padding: .5rem; white-space: pre-wrap; word-break: break-all; max-height: 20rem; overflow: auto; }
section.actions form { margin-bottom: .75rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

/**
 * Progressive behaviour of the forms marked `data-api`: each posts its fields as JSON to the
 * dashboard API with the session's CSRF token (from the page's meta tag) and, for refunds, a
 * fresh Idempotency-Key; the answer is announced in the form's live region.
 */
export const DASHBOARD_JS = `
(function () {
  var csrf = document.querySelector('meta[name=csrf-token]');
  function announce(form, kind, text) {
    var out = form.querySelector('[data-out]');
    out.setAttribute('role', kind);
    out.textContent = text;
  }
  document.querySelectorAll('form[data-api]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var body = {};
      var data = new FormData(form);
      data.forEach(function (value, name) {
        var field = form.querySelector('[name="' + name + '"]');
        if (field.dataset.list !== undefined) body[name] = data.getAll(name).map(String);
        else body[name] = field.type === 'number' || field.dataset.number !== undefined ? Number(value) : String(value);
      });
      var headers = { 'content-type': 'application/json' };
      if (csrf) headers['x-csrf-token'] = csrf.content;
      if (form.dataset.idempotent !== undefined) headers['idempotency-key'] = crypto.randomUUID();
      fetch(form.dataset.api, { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'same-origin' })
        .then(function (response) { return response.json().then(function (json) { return { ok: response.ok, json: json }; }); })
        .then(function (answer) {
          if (!answer.ok) return announce(form, 'alert', form.dataset.failed + ': ' + answer.json.detail);
          if (form.dataset.next) return window.location.assign(form.dataset.next);
          var shown = form.dataset.show ? answer.json[form.dataset.show] : '';
          announce(form, 'status', form.dataset.done + (shown ? ' ' + shown : ''));
        })
        .catch(function (error) { announce(form, 'alert', String(error)); });
    });
  });
  var token = document.querySelector('input[name=token]');
  if (token && window.location.hash.length > 1) token.value = window.location.hash.slice(1);
})();
`;
