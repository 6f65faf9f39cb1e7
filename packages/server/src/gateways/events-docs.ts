import { ADYEN_EVENT_CODES_READ } from './adyen/notifications.ts';
import { STRIPE_EVENTS_READ } from './stripe/events.ts';

/**
 * The events each connector reads, as docs/gateways.md lists them for merchants to subscribe
 * to: generated from the connectors' own lists (a test fails while the docs differ), so a merchant
 * who follows the docs receives every event the code acts on.
 */
const LISTS: ReadonlyArray<{ connector: string; source: string; events: readonly string[] }> = [
  {
    connector: 'stripe',
    source: 'packages/server/src/gateways/stripe/events.ts',
    events: STRIPE_EVENTS_READ,
  },
  {
    connector: 'adyen',
    source: 'packages/server/src/gateways/adyen/notifications.ts',
    events: ADYEN_EVENT_CODES_READ,
  },
];

const startOf = (connector: string, source: string) =>
  `<!-- ${connector} events: generated from ${source} -->`;
const endOf = (connector: string) => `<!-- end of the ${connector} events -->`;

/** The list of one connector's events between its markers. */
export function renderEventList(connector: string): string {
  const list = LISTS.find((l) => l.connector === connector);
  if (!list) throw new Error(`no event list for connector ${connector}`);
  return [
    startOf(list.connector, list.source),
    ...list.events.map((event) => `- \`${event}\``),
    endOf(list.connector),
  ].join('\n');
}

/** `text` (docs/gateways.md) with each connector's event list replaced by the generated one. */
export function withEventLists(text: string): string {
  let result = text;
  for (const { connector, source } of LISTS) {
    const start = result.indexOf(startOf(connector, source));
    const end = result.indexOf(endOf(connector));
    if (start < 0 || end < start) throw new Error(`docs/gateways.md has no ${connector} event list markers`);
    result =
      result.slice(0, start) + renderEventList(connector) + result.slice(end + endOf(connector).length);
  }
  return result;
}
