import type { OverviewResource } from '../../../app/resources/dashboard.ts';
import { OVERVIEW_DAYS } from '../../../domain/overview.ts';
import { fill, type Language, t } from '../../../i18n/i18n.ts';
import { formatMoney } from '../../kit/format.ts';
import { emptyState, h, type PageFrame, page } from '../../kit/layout.ts';

type Totals = OverviewResource['today'][number];
type Day = OverviewResource['days'][number];

function totalsTable(frame: PageFrame, caption: string, totals: Totals[]): string {
  const m = t(frame.lang);
  if (totals.length === 0) return `<h2>${h(caption)}</h2>${emptyState(m.noActivity, m.emptyActivityHelp)}`;
  const money = (amount: number, currency: string) => h(formatMoney(amount, currency, frame.lang));
  const rows = totals
    .map(
      (
        x,
      ) => `<tr><th scope="row">${h(x.currency)}</th><td class="num">${money(x.volume_minor, x.currency)}</td>
<td class="num">${x.succeeded_count}</td><td class="num">${x.failed_count}</td>
<td class="num">${x.success_rate_percent === null ? '–' : `${x.success_rate_percent}%`}</td>
<td class="num">${money(x.refunded_minor, x.currency)} (${x.refund_count})</td></tr>`,
    )
    .join('');
  return `<h2>${h(caption)}</h2>
<table><caption>${h(caption)}</caption><thead><tr><th scope="col">${h(m.currency)}</th><th scope="col" class="num">${h(m.volume)}</th>
<th scope="col" class="num">${h(m.succeeded)}</th><th scope="col" class="num">${h(m.failed)}</th><th scope="col" class="num">${h(m.successRate)}</th>
<th scope="col" class="num">${h(m.refunds)}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The 30 UTC dates ending on `lastDay`, oldest first. */
function chartDates(lastDay: string): string[] {
  const last = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: OVERVIEW_DAYS }, (_, i) =>
    new Date(last - (OVERVIEW_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

const dayLabel = (date: string, lang: Language) =>
  new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 96;
const BOTTOM = 28;
const TOP = 12;

/**
 * One currency's daily volume as bars with axes, drawn on the server as SVG (markup, not code,
 * so the CSP allows it and it needs no script): the amount axis at 0, half and the highest day,
 * a day label every fifth day, and each bar's day and amount on hover (its `<title>`). Screen
 * readers get the chart's title and description, and the same numbers in the table after it.
 */
function volumeChart(frame: PageFrame, currency: string, dates: string[], days: Day[]): string {
  const m = t(frame.lang);
  const volumeOn = new Map(days.filter((d) => d.currency === currency).map((d) => [d.date, d.volume_minor]));
  const values = dates.map((date) => volumeOn.get(date) ?? 0);
  const highest = Math.max(...values);
  const scale = Math.max(1, highest);
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const slot = (WIDTH - LEFT) / dates.length;
  // Pixel positions are computed for drawing only; the amounts shown stay integers in minor units.
  const y = (value: number) => TOP + plotHeight - Math.round((value / scale) * plotHeight);
  const ticks = [0, Math.floor(highest / 2), highest]
    .filter((v, i, all) => all.indexOf(v) === i)
    .map(
      (value) =>
        `<line class="grid" x1="${LEFT}" x2="${WIDTH}" y1="${y(value) + 0.5}" y2="${y(value) + 0.5}"/><text x="${LEFT - 6}" y="${y(value) + 4}" text-anchor="end">${h(formatMoney(value, currency, frame.lang))}</text>`,
    )
    .join('');
  const bars = values
    .map((value, i) => {
      const top = y(value);
      const x = (LEFT + i * slot + 2).toFixed(1);
      return `<rect class="bar" x="${x}" y="${top}" width="${(slot - 4).toFixed(1)}" height="${TOP + plotHeight - top}"><title>${h(dayLabel(dates[i] ?? '', frame.lang))}: ${h(formatMoney(value, currency, frame.lang))}</title></rect>`;
    })
    .join('');
  const labels = dates
    .map((date, i) =>
      i % 5 === 4 || i === 0
        ? // The last day's label ends at the plot's edge (centred under its bar it was cut off).
          i === dates.length - 1
          ? `<text x="${WIDTH}" y="${HEIGHT - 8}" text-anchor="end">${h(dayLabel(date, frame.lang))}</text>`
          : `<text x="${(LEFT + (i + 0.5) * slot).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle">${h(dayLabel(date, frame.lang))}</text>`
        : '',
    )
    .join('');
  const id = `chart-${currency}`;
  const rows = dates
    .map(
      (date, i) =>
        `<tr><th scope="row">${h(date)}</th><td class="num">${h(formatMoney(values[i] ?? 0, currency, frame.lang))}</td></tr>`,
    )
    .join('');
  return `<figure>
<svg role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" class="chart">
<title id="${id}-title">${h(m.last30Days)} (${h(currency)})</title>
<desc id="${id}-desc">${h(fill(m.chartDescription, { currency }))}</desc>
${ticks}
<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${TOP + plotHeight}"/>
${bars}
<line class="axis" x1="${LEFT}" x2="${WIDTH}" y1="${TOP + plotHeight + 0.5}" y2="${TOP + plotHeight + 0.5}"/>
${labels}
</svg>
<figcaption>${h(m.last30Days)} (${h(currency)}): ${h(dayLabel(dates[0] ?? '', frame.lang))} – ${h(dayLabel(dates.at(-1) ?? '', frame.lang))}</figcaption>
</figure>
<details><summary>${h(m.chartTable)} (${h(currency)})</summary>
<table><caption>${h(m.last30Days)} (${h(currency)})</caption><thead><tr><th scope="col">${h(m.day)}</th><th scope="col" class="num">${h(m.volume)}</th></tr></thead><tbody>${rows}</tbody></table>
</details>`;
}

/** The change from `before` to `now` in percent with one decimal, or null when there was nothing before. */
function changePercent(now: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((now - before) * 1000) / before) / 10;
}

function change(frame: PageFrame, now: number, before: number): string {
  const m = t(frame.lang);
  const percent = changePercent(now, before);
  if (percent === null) return `<span class="delta">${h(m.noPreviousPeriod)}</span>`;
  const sign = percent > 0 ? '+' : '';
  const tone = percent > 0 ? 'up' : percent < 0 ? 'down' : 'flat';
  return `<span class="delta ${tone}">${sign}${percent}% ${h(m.vsPrevious30Days)}</span>`;
}

/** One currency's panel: its figures for the last 30 days against the 30 before, its chart and its decline reasons. */
function currencyPanel(
  frame: PageFrame,
  overview: OverviewResource,
  currency: string,
  dates: string[],
): string {
  const m = t(frame.lang);
  const zero: Totals = {
    currency,
    volume_minor: 0,
    succeeded_count: 0,
    failed_count: 0,
    success_rate_percent: null,
    refunded_minor: 0,
    refund_count: 0,
  };
  const now = overview.last_30_days.find((x) => x.currency === currency) ?? zero;
  const before = overview.previous_30_days.find((x) => x.currency === currency) ?? zero;
  const reasons = overview.decline_reasons.filter((d) => d.currency === currency);
  const figure = (label: string, value: string, delta: string) =>
    `<div class="kpi"><dt>${h(label)}</dt><dd><span class="value">${value}</span>${delta}</dd></div>`;
  const declines = reasons.length
    ? `<table aria-labelledby="declines-${h(currency)}"><thead><tr><th scope="col">${h(m.declineReason)}</th><th scope="col" class="num">${h(m.failed)}</th></tr></thead><tbody>${reasons
        .map((d) => `<tr><td><code>${h(d.reason)}</code></td><td class="num">${d.count}</td></tr>`)
        .join('')}</tbody></table>`
    : `<p>${h(m.noDeclines)}</p>`;
  return `<section class="panel" id="currency-${h(currency)}" aria-labelledby="currency-${h(currency)}-heading">
<h3 id="currency-${h(currency)}-heading">${h(fill(m.currencyLast30Days, { currency }))}</h3>
<dl class="kpis">
${figure(m.volume, h(formatMoney(now.volume_minor, currency, frame.lang)), change(frame, now.volume_minor, before.volume_minor))}
${figure(m.succeeded, String(now.succeeded_count), change(frame, now.succeeded_count, before.succeeded_count))}
${figure(m.successRate, now.success_rate_percent === null ? '–' : `${now.success_rate_percent}%`, before.success_rate_percent === null ? '' : `<span class="delta">${h(fill(m.previousRate, { rate: before.success_rate_percent }))}</span>`)}
${figure(m.refunds, h(formatMoney(now.refunded_minor, currency, frame.lang)), `<span class="delta">${now.refund_count} ${h(m.refunds.toLowerCase())}</span>`)}
</dl>
${volumeChart(frame, currency, dates, overview.days)}
<h4 id="declines-${h(currency)}">${h(fill(m.topDeclineReasons, { currency }))}</h4>
${declines}
</section>`;
}

/**
 * The overview: today and this month per currency, then the last 30 days as one panel per
 * currency that had payments in them (none for a currency without), chosen with tabs. The tabs
 * are links to the panels' anchors and the stylesheet shows the targeted panel (the first one
 * when none is), so they work without a script.
 */
export function overviewPage(frame: PageFrame, overview: OverviewResource): string {
  const m = t(frame.lang);
  const dates = chartDates(overview.as_of.slice(0, 10));
  const currencies = [...new Set(overview.last_30_days.map((x) => x.currency))].sort();
  const tabs =
    currencies.length > 1
      ? `<nav class="tabs" aria-label="${h(m.currency)}"><ul>${currencies.map((c) => `<li><a href="#currency-${h(c)}">${h(c)}</a></li>`).join('')}</ul></nav>`
      : '';
  const panels = currencies.map((c) => currencyPanel(frame, overview, c, dates)).join('\n');
  return page(
    frame,
    `<p>${h(m.allTimesUtc)}</p>
${totalsTable(frame, m.today, overview.today)}
${totalsTable(frame, m.thisMonth, overview.month)}
<h2>${h(m.last30Days)}</h2>
${panels ? `${tabs}<div class="panels">${panels}</div>` : emptyState(m.noActivity, m.emptyActivityHelp)}`,
  );
}
