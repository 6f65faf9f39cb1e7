/**
 * The dashboard's design system, hand-written: colour, type and spacing tokens as custom
 * properties (a dark set under `prefers-color-scheme: dark`), the frame (header, test-data banner,
 * side navigation), and the few components every page uses (buttons, badges, tables, forms,
 * empty states). Served as /dashboard/assets/dashboard.css, so the CSP needs no inline style.
 * Every foreground/background pair keeps WCAG AA contrast in both themes.
 */
const TOKENS = `
:root {
  color-scheme: light dark;
  --font-sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --font-mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace;
  --text-xs: .75rem; --text-sm: .875rem; --text-md: 1rem; --text-lg: 1.125rem; --text-xl: 1.375rem; --text-2xl: 1.75rem;
  --leading: 1.5;
  --space-1: .25rem; --space-2: .5rem; --space-3: .75rem; --space-4: 1rem; --space-5: 1.5rem; --space-6: 2rem; --space-7: 3rem;
  --radius: 6px; --radius-pill: 999px;
  --nav-width: 14rem;
  --bg: #f5f6f8; --surface: #ffffff; --surface-2: #eef0f3; --border: #d0d5dd; --border-strong: #98a2b3;
  --text: #101828; --text-muted: #475467; --link: #3538cd; --focus: #3538cd;
  --primary: #3538cd; --primary-hover: #2d31a6; --on-primary: #ffffff;
  --secondary-bg: #ffffff; --secondary-text: #344054;
  --danger: #b42318; --danger-hover: #912018; --on-danger: #ffffff;
  --ok-bg: #dcfae6; --ok-text: #05603a; --bad-bg: #fee4e2; --bad-text: #912018;
  --warn-bg: #fef0c7; --warn-text: #7a2e0e; --info-bg: #e0eaff; --info-text: #2d31a6;
  --neutral-bg: #eaecf0; --neutral-text: #344054;
  --test-bg: #fdb022; --test-text: #3d1a00; --test-stripe: #fec84b;
  --live-bg: #0c111d; --live-text: #f5f6f8; --live-accent: #47cd89;
  --chart-bar: #3538cd; --chart-grid: #d0d5dd; --chart-axis: #475467;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0c111d; --surface: #161b26; --surface-2: #1f242f; --border: #333741; --border-strong: #61646c;
    --text: #f5f5f6; --text-muted: #a9acb2; --link: #a4bcfd; --focus: #a4bcfd;
    --primary: #8098f9; --primary-hover: #a4bcfd; --on-primary: #0c111d;
    --secondary-bg: #1f242f; --secondary-text: #e5e7ea;
    --danger: #f97066; --danger-hover: #fda29b; --on-danger: #0c111d;
    --ok-bg: #053321; --ok-text: #75e0a7; --bad-bg: #55160c; --bad-text: #fda29b;
    --warn-bg: #4e1d09; --warn-text: #fec84b; --info-bg: #1f235b; --info-text: #c7d7fe;
    --neutral-bg: #333741; --neutral-text: #e5e7ea;
    --test-bg: #b54708; --test-text: #ffffff; --test-stripe: #93370d;
    --live-bg: #053321; --live-text: #f5f5f6; --live-accent: #75e0a7;
    --chart-bar: #8098f9; --chart-grid: #333741; --chart-axis: #a9acb2;
  }
}
`;

const BASE = `
*, *::before, *::after { box-sizing: border-box; }
html { font-family: var(--font-sans); font-size: 100%; line-height: var(--leading); color: var(--text); background: var(--bg); }
body { margin: 0; min-height: 100vh; }
h1 { font-size: var(--text-2xl); line-height: 1.25; margin: 0 0 var(--space-5); overflow-wrap: anywhere; }
h2 { font-size: var(--text-xl); line-height: 1.3; margin: var(--space-6) 0 var(--space-3); }
h3 { font-size: var(--text-lg); margin: var(--space-5) 0 var(--space-2); }
p { margin: 0 0 var(--space-3); }
a { color: var(--link); text-underline-offset: .15em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
code, pre { font-family: var(--font-mono); font-size: .9em; }
code { overflow-wrap: anywhere; }
pre { background: var(--surface-2); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-3); white-space: pre-wrap; overflow-wrap: anywhere; max-height: 20rem; overflow: auto; }
.skip { position: absolute; left: -9999px; top: var(--space-2); z-index: 10; background: var(--surface); color: var(--link); padding: var(--space-2) var(--space-3); border-radius: var(--radius); }
.skip:focus { left: var(--space-4); }
.visually-hidden, .skip-visually { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

const FRAME = `
body > header { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-4); padding: var(--space-2) var(--space-5); background: var(--surface); border-bottom: 1px solid var(--border); }
body > header .brand { font-weight: 700; font-size: var(--text-lg); color: inherit; text-decoration: none; white-space: nowrap; }
header .account { margin-left: auto; display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-3); font-size: var(--text-sm); }
header .account form { margin: 0; }
header .who { color: var(--text-muted); overflow-wrap: anywhere; }
header.mode-live { background: var(--live-bg); color: var(--live-text); border-bottom: 4px solid var(--live-accent); }
header.mode-live a, header.mode-live .who { color: var(--live-text); }
header.mode-live .mode-switch a[aria-current] { background: var(--live-accent); color: var(--live-bg); }
.mode-switch { display: inline-flex; border: 1px solid var(--border-strong); border-radius: var(--radius-pill); overflow: hidden; font-size: var(--text-sm); }
.mode-switch a { padding: var(--space-1) var(--space-3); text-decoration: none; color: inherit; white-space: nowrap; }
.mode-switch a[aria-current] { background: var(--test-bg); color: var(--test-text); font-weight: 700; }
.test-banner { margin: 0; padding: var(--space-2) var(--space-5); font-weight: 600; color: var(--test-text);
  background: repeating-linear-gradient(-45deg, var(--test-bg) 0 14px, var(--test-stripe) 14px 28px); border-bottom: 1px solid var(--border); }
.live-banner { margin: 0; padding: var(--space-1) var(--space-5); font-size: var(--text-sm); background: var(--live-bg); color: var(--live-text); }
.shell { display: grid; grid-template-columns: var(--nav-width) minmax(0, 1fr); min-height: calc(100vh - 4rem); }
.sidenav { background: var(--surface); border-right: 1px solid var(--border); padding: var(--space-4) var(--space-2); }
.sidenav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; position: sticky; top: var(--space-4); }
.sidenav a { display: block; padding: var(--space-2) var(--space-3); border-radius: var(--radius); color: var(--text); text-decoration: none; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.sidenav a:hover { background: var(--surface-2); }
.sidenav a[aria-current="page"] { background: var(--info-bg); color: var(--info-text); font-weight: 600; }
main { padding: var(--space-5) var(--space-6); max-width: 80rem; width: 100%; }
.public main { max-width: 28rem; margin: var(--space-7) auto; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-6); }
.public form { flex-direction: column; align-items: stretch; }
@media (max-width: 48rem) {
  body > header { padding: var(--space-2) var(--space-3); }
  .test-banner, .live-banner { padding-left: var(--space-3); padding-right: var(--space-3); }
  .shell { grid-template-columns: minmax(0, 1fr); }
  /* A narrow screen keeps the navigation on one row that scrolls sideways: it never wraps. */
  .sidenav { border-right: 0; border-bottom: 1px solid var(--border); padding: var(--space-1) var(--space-2); overflow-x: auto; }
  .sidenav ul { flex-direction: row; position: static; }
  main { padding: var(--space-4) var(--space-3); }
  /* A long label ("Desactivar el inicio de sesión en dos pasos") wraps rather than widen the page. */
  main button, main .button { white-space: normal; }
  .public main { margin: var(--space-4) var(--space-3); padding: var(--space-4); width: auto; }
}
`;

const COMPONENTS = `
button, .button { font: inherit; font-size: var(--text-sm); font-weight: 600; line-height: 1.25; padding: var(--space-2) var(--space-4); border-radius: var(--radius); border: 1px solid var(--primary); background: var(--primary); color: var(--on-primary); cursor: pointer; text-decoration: none; display: inline-block; white-space: nowrap; }
button:hover, .button:hover { background: var(--primary-hover); border-color: var(--primary-hover); }
button.secondary, .button.secondary, button.copy { background: var(--secondary-bg); color: var(--secondary-text); border-color: var(--border-strong); }
button.secondary:hover, .button.secondary:hover, button.copy:hover { background: var(--surface-2); }
button.danger, .button.danger, button.destructive, .button.destructive { background: var(--surface); color: var(--danger); border: 2px solid var(--danger); }
button.danger:hover, .button.danger:hover, button.destructive:hover, .button.destructive:hover { background: var(--danger); color: var(--on-danger); }
button.copy { padding: 0 var(--space-2); font-size: var(--text-xs); font-weight: 500; margin-left: var(--space-1); vertical-align: middle; }
input, select, textarea { font: inherit; color: var(--text); background: var(--surface); border: 1px solid var(--border-strong); border-radius: var(--radius); padding: var(--space-2) var(--space-3); min-width: 0; max-width: 100%; }
input[type=checkbox], input[type=radio] { width: 1.5rem; height: 1.5rem; accent-color: var(--primary); }
input[type=url], input[name=url] { min-width: min(32rem, 100%); }
label { display: flex; flex-direction: column; align-items: flex-start; gap: var(--space-1); font-size: var(--text-sm); font-weight: 600; }
label > input:not([type=checkbox]):not([type=radio]), label > select { width: min(24rem, 100%); }
/* An endpoint URL is long: its box fits the placeholder (a fixed width: a percentage of a label in a wrapping flex row resolves to the input's default size). */
label > input[type=url]:not([hidden]) { width: min(32rem, calc(100vw - 4rem)); }
form { margin: 0 0 var(--space-4); }
form:not(.inline) > label, form:not(.inline) > fieldset { margin-bottom: var(--space-3); }
form.inline { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: end; }
td form.inline, td form { margin: 0; gap: var(--space-2); }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); margin: 0 0 var(--space-4); padding: var(--space-3) var(--space-4); }
fieldset label { flex-direction: row; align-items: center; font-weight: 400; }
legend { font-weight: 600; padding: 0 var(--space-1); }
[role=alert], [role=status] { margin: var(--space-3) 0; font-weight: 600; overflow-wrap: anywhere; }
[role=alert] { color: var(--bad-text); } [role=status] { color: var(--ok-text); }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: var(--space-2) var(--space-5); margin: 0 0 var(--space-5); }
dt { font-weight: 600; color: var(--text-muted); }
dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 48rem) { th, td { padding: var(--space-2); } thead th { white-space: normal; letter-spacing: 0; } td code, td .id { max-width: 10ch; } }
@media (max-width: 30rem) { dl { grid-template-columns: minmax(0, 1fr); gap: 0; } dd { margin-bottom: var(--space-2); } }
/* A table scrolls inside its own focusable region (see layout.ts), never the page. */
.table-wrap { position: relative; overflow-x: auto; margin: 0 0 var(--space-5); border-radius: var(--radius); }
.table-wrap > table { margin: 0; }
table { border-collapse: collapse; width: 100%; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); margin: 0 0 var(--space-5); font-size: var(--text-sm); }
caption { caption-side: top; text-align: left; font-weight: 600; padding: var(--space-2) var(--space-3); }
/* A table right under its heading keeps its caption for screen readers only: seen twice, it reads as a stutter. */
h2 + table > caption, h2 + .table-wrap caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; padding: 0; }
th, td { text-align: left; padding: var(--space-2) var(--space-3); border-bottom: 1px solid var(--border); vertical-align: top; overflow-wrap: anywhere; }
thead th { background: var(--surface-2); color: var(--text-muted); font-weight: 600; font-size: var(--text-xs); text-transform: uppercase; letter-spacing: .04em; white-space: nowrap; }
tbody tr:last-child > * { border-bottom: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
/* Words that must not break inside (event types): the table scrolls in its region instead. */
td.nowrap { white-space: nowrap; overflow-wrap: normal; }
/* A list's previous and next links, under its table. */
.pager { display: flex; flex-wrap: wrap; gap: var(--space-4); margin: var(--space-4) 0; }
/* Ids and URLs in a table keep to one line and end in an ellipsis; the whole text stays in the page (for search, selection and screen readers) and the copy button takes it. */
td code, td .id, .id { display: inline-block; max-width: 16ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; overflow-wrap: normal; }
td a code { max-width: 24ch; }
.badge { display: inline-flex; align-items: center; gap: .35em; padding: .1em .6em; border-radius: var(--radius-pill); font-size: var(--text-xs); font-weight: 600; line-height: 1.6; white-space: nowrap; }
.badge::before { content: ""; width: .5em; height: .5em; border-radius: 50%; background: currentColor; }
.badge.ok { background: var(--ok-bg); color: var(--ok-text); }
.badge.bad { background: var(--bad-bg); color: var(--bad-text); }
.badge.warn { background: var(--warn-bg); color: var(--warn-text); }
.badge.info { background: var(--info-bg); color: var(--info-text); }
.badge.neutral { background: var(--neutral-bg); color: var(--neutral-text); }
.banner { border: 1px solid var(--bad-text); border-left-width: 6px; background: var(--bad-bg); color: var(--bad-text); padding: var(--space-3) var(--space-4); margin-bottom: var(--space-5); border-radius: var(--radius); }
.banner a { color: inherit; }
.banner ul { margin: var(--space-1) 0; padding-left: var(--space-5); }
.empty { border: 1px dashed var(--border-strong); border-radius: var(--radius); padding: var(--space-5); text-align: center; color: var(--text-muted); background: var(--surface); margin: 0 0 var(--space-5); }
.empty strong { display: block; color: var(--text); font-size: var(--text-lg); margin-bottom: var(--space-1); }
details { margin: 0 0 var(--space-4); }
summary { cursor: pointer; color: var(--link); }
section.actions form { margin-bottom: var(--space-3); }
ol.timeline { list-style: none; padding: 0; border-left: 2px solid var(--border); margin: 0 0 var(--space-5) var(--space-2); }
ol.timeline li { padding: 0 0 var(--space-2) var(--space-4); position: relative; }
ol.timeline li::before { content: ""; position: absolute; left: -7px; top: .45em; width: 12px; height: 12px; border-radius: 50%; background: var(--primary); }
figure { margin: 0 0 var(--space-4); }
figcaption { font-size: var(--text-sm); color: var(--text-muted); }
.qr svg, img.qr, .qr img { background: #fff; padding: var(--space-2); }
/* The overview: figures, currency tabs (links to the panels; the targeted panel shows, else the first), chart. */
dl.kpis { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: var(--space-3); }
.kpi { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-3) var(--space-4); }
.kpi dt { font-size: var(--text-sm); }
.kpi .value { display: block; font-size: var(--text-xl); font-weight: 700; color: var(--text); font-variant-numeric: tabular-nums; }
.delta { font-size: var(--text-xs); color: var(--text-muted); }
.delta.up { color: var(--ok-text); } .delta.down { color: var(--bad-text); }
.tabs ul { list-style: none; display: flex; gap: var(--space-1); margin: 0 0 var(--space-3); padding: 0; border-bottom: 1px solid var(--border); overflow-x: auto; }
.tabs a { display: block; padding: var(--space-2) var(--space-4); text-decoration: none; font-weight: 600; border-bottom: 3px solid transparent; }
.tabs a:hover { border-bottom-color: var(--border-strong); }
.panels:has(.panel:target) > .panel:not(:target), .panels:not(:has(.panel:target)) > .panel:not(:first-child) { display: none; }
.panel { scroll-margin-top: var(--space-4); }
svg.chart { display: block; width: 100%; height: auto; color: var(--text); }
svg.chart .bar { fill: var(--chart-bar); }
svg.chart .bar:hover, svg.chart .bar:focus { fill: var(--link); opacity: .8; }
svg.chart .grid { stroke: var(--chart-grid); }
svg.chart .axis { stroke: var(--chart-axis); }
svg.chart text { fill: var(--text-muted); font-size: 11px; font-family: var(--font-sans); }
/* Confirmation pages and secrets shown once: long addresses, URLs and keys wrap rather than widen the page. */
.statement, form.confirm, code.secret { overflow-wrap: anywhere; }
form.confirm button { white-space: normal; max-width: 100%; text-align: left; }
form.confirm a { margin-left: var(--space-3); }
code.secret { font-size: var(--text-md); user-select: all; }
time[title] { text-decoration: underline dotted; text-underline-offset: 2px; cursor: help; }
`;

export const DASHBOARD_CSS = `${TOKENS}${BASE}${FRAME}${COMPONENTS}`;
