import type { OverviewResource } from '../app/resources/dashboard.ts';
import { describeAmount } from '../domain/money.ts';
import { OVERVIEW_DAYS } from '../domain/overview.ts';
import { fill, t } from './i18n.ts';
import { emptyState, h, type PageFrame, page } from './layout.ts';

type Totals = OverviewResource['today'][number];
type Day = OverviewResource['days'][number];

function totalsTable(frame: PageFrame, caption: string, totals: Totals[]): string {
  const m = t(frame.lang);
  if (totals.length === 0) return `<h2>${h(caption)}</h2>${emptyState(m.noActivity, m.emptyActivityHelp)}`;
  const rows = totals
    .map(
      (
        x,
      ) => `<tr><th scope="row">${h(x.currency)}</th><td>${h(describeAmount(x.volume_minor, x.currency))}</td>
<td>${x.succeeded_count}</td><td>${x.failed_count}</td>
<td>${x.success_rate_percent === null ? '–' : `${x.success_rate_percent}%`}</td>
<td>${h(describeAmount(x.refunded_minor, x.currency))} (${x.refund_count})</td></tr>`,
    )
    .join('');
  return `<h2>${h(caption)}</h2>
<table><caption>${h(caption)}</caption><thead><tr><th scope="col">${h(m.currency)}</th><th scope="col">${h(m.volume)}</th>
<th scope="col">${h(m.succeeded)}</th><th scope="col">${h(m.failed)}</th><th scope="col">${h(m.successRate)}</th>
<th scope="col">${h(m.refunds)}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The 30 UTC dates ending on `lastDay`, oldest first. */
function chartDates(lastDay: string): string[] {
  const last = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: OVERVIEW_DAYS }, (_, i) =>
    new Date(last - (OVERVIEW_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

const WIDTH = 640;
const HEIGHT = 160;

/**
 * One currency's daily volume as bars, drawn on the server as SVG (no script, no CDN; the CSP
 * allows it because it is markup, not code). Screen readers get its title and description, and
 * the same numbers as a table right after it.
 */
function volumeChart(frame: PageFrame, currency: string, dates: string[], days: Day[]): string {
  const m = t(frame.lang);
  const volumeOn = new Map(days.filter((d) => d.currency === currency).map((d) => [d.date, d.volume_minor]));
  const values = dates.map((date) => volumeOn.get(date) ?? 0);
  const max = Math.max(1, ...values);
  const slot = WIDTH / dates.length;
  const bars = values
    .map((value, i) => {
      // Bar heights are pixels, computed for drawing only; the amounts themselves stay integers.
      const height = Math.round((value / max) * (HEIGHT - 20));
      return `<rect x="${(i * slot + 1).toFixed(1)}" y="${HEIGHT - height}" width="${(slot - 2).toFixed(1)}" height="${height}" fill="#0b57d0"><title>${h(dates[i])}: ${h(describeAmount(value, currency))}</title></rect>`;
    })
    .join('');
  const id = `chart-${currency}`;
  const rows = dates
    .map(
      (date, i) =>
        `<tr><th scope="row">${h(date)}</th><td>${h(describeAmount(values[i] ?? 0, currency))}</td></tr>`,
    )
    .join('');
  return `<figure>
<svg role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" height="${HEIGHT}" class="chart">
<title id="${id}-title">${h(m.last30Days)} (${h(currency)})</title>
<desc id="${id}-desc">${h(fill(m.chartDescription, { currency }))}</desc>
<line x1="0" y1="${HEIGHT - 0.5}" x2="${WIDTH}" y2="${HEIGHT - 0.5}" stroke="#475467"/>
${bars}
</svg>
<figcaption>${h(m.last30Days)} (${h(currency)}): ${h(dates[0])} – ${h(dates.at(-1))}, max ${h(describeAmount(max === 1 && values.every((v) => v === 0) ? 0 : max, currency))}</figcaption>
</figure>
<details><summary>${h(m.chartTable)} (${h(currency)})</summary>
<table><caption>${h(m.last30Days)} (${h(currency)})</caption><thead><tr><th scope="col">${h(m.day)}</th><th scope="col">${h(m.volume)}</th></tr></thead><tbody>${rows}</tbody></table>
</details>`;
}

export function overviewPage(frame: PageFrame, overview: OverviewResource): string {
  const m = t(frame.lang);
  const dates = chartDates(overview.as_of.slice(0, 10));
  const currencies = [...new Set(overview.days.map((d) => d.currency))].sort();
  const charts = currencies.map((currency) => volumeChart(frame, currency, dates, overview.days)).join('\n');
  return page(
    frame,
    `<p>${h(m.allTimesUtc)}</p>
${totalsTable(frame, m.today, overview.today)}
${totalsTable(frame, m.thisMonth, overview.month)}
<h2>${h(m.last30Days)}</h2>
${charts || emptyState(m.noActivity, m.emptyActivityHelp)}`,
  );
}
