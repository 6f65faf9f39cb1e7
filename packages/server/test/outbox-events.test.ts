import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildEvent, type EventType } from '../src/domain/events.ts';
import { hasIdShape, newId } from '../src/domain/ids.ts';
import { EVENTS_CHANNEL, insertEvent } from '../src/storage/repositories/events.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  status: string;
  next_attempt_at: Date;
}

for (const kind of databaseKinds()) {
  describe(`outbox: one statement writes an event and its deliveries (${kind})`, () => {
    let database: TestDatabase;
    const notified: string[] = [];
    let unlisten: () => Promise<void>;

    before(async () => {
      database = await openTestDatabase(kind);
      unlisten = await database.db.listen(EVENTS_CHANNEL, (payload) => notified.push(payload));
    });
    after(async () => {
      await unlisten();
      await database.drop();
    });

    const addMerchant = async () => {
      const id = newId('acct');
      await database.db.query('INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, now())', [
        id,
        id,
      ]);
      return id;
    };
    const addEndpoint = async (
      merchantId: string,
      options: { livemode?: boolean; events?: string[]; status?: string } = {},
    ) => {
      const id = newId('we');
      await database.db.query(
        `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, enabled_events, secret_sealed, status,
                                        created_at, updated_at)
         VALUES ($1, $2, $3, 'http://localhost:4000/hook', $4, 'sealed', $5, now(), now())`,
        [id, merchantId, options.livemode ?? false, options.events ?? ['*'], options.status ?? 'enabled'],
      );
      return id;
    };
    const emit = async (merchantId: string, type: EventType = 'payment_intent.succeeded') => {
      const event = buildEvent(type, { id: 'pi_outbox' }, false, new Date('2026-01-02T03:04:05.678Z'));
      await database.db.transaction((tx) => insertEvent(tx, merchantId, 'pi_outbox', event));
      return event.envelope.id;
    };
    const deliveriesOf = async (eventId: string) =>
      (
        await database.db.query<DeliveryRow>(
          'SELECT id, endpoint_id, status, next_attempt_at FROM webhook_deliveries WHERE event_id = $1',
          [eventId],
        )
      ).rows;
    /** Every NOTIFY committed before the marker has reached the listener once the marker has. */
    const notificationsUntilMarker = async () => {
      const marker = `marker-${newId('req')}`;
      await database.db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, marker]);
      for (let i = 0; i < 100 && !notified.includes(marker); i++) await new Promise((r) => setTimeout(r, 20));
      const seen = notified.splice(0, notified.length);
      assert.equal(seen.at(-1), marker, 'the marker arrives last');
      return seen.slice(0, -1);
    };

    it('stores the event, queues no delivery and wakes nobody for a merchant without endpoints', async () => {
      const merchantId = await addMerchant();
      await notificationsUntilMarker();
      const eventId = await emit(merchantId);
      const { rowCount } = await database.db.query('SELECT 1 FROM events WHERE id = $1', [eventId]);
      assert.equal(rowCount, 1);
      assert.deepEqual(await deliveriesOf(eventId), []);
      assert.deepEqual(await notificationsUntilMarker(), []);
    });

    it('queues exactly one delivery per subscribed endpoint and wakes the workers once, after commit', async () => {
      const merchantId = await addMerchant();
      const other = await addMerchant();
      const subscribed = [
        await addEndpoint(merchantId),
        await addEndpoint(merchantId, { events: ['payment_intent.failed', 'payment_intent.succeeded'] }),
        await addEndpoint(merchantId, { status: 'failing' }),
      ];
      await addEndpoint(merchantId, { events: ['payment_intent.failed'] });
      await addEndpoint(merchantId, { status: 'disabled' });
      await addEndpoint(merchantId, { livemode: true });
      await addEndpoint(other);
      await notificationsUntilMarker();

      const eventId = await emit(merchantId);
      const deliveries = await deliveriesOf(eventId);
      assert.deepEqual(deliveries.map((d) => d.endpoint_id).sort(), subscribed.sort());
      for (const delivery of deliveries) {
        assert.ok(hasIdShape(delivery.id, 'wd'), delivery.id);
        assert.equal(delivery.status, 'PENDING');
        assert.equal(delivery.next_attempt_at.toISOString(), '2026-01-02T03:04:05.678Z');
      }
      // The wake-up's payload is the waking process's token (its own LISTEN drops the echo).
      assert.equal((await notificationsUntilMarker()).length, 1);
    });

    it('gives every delivery of an event its own id, past one base62 digit of endpoints', async () => {
      const merchantId = await addMerchant();
      for (let i = 0; i < 70; i++) await addEndpoint(merchantId);
      const deliveries = await deliveriesOf(await emit(merchantId));
      assert.equal(deliveries.length, 70);
      assert.equal(new Set(deliveries.map((d) => d.id)).size, 70);
      assert.ok(deliveries.every((d) => hasIdShape(d.id, 'wd')));
      await notificationsUntilMarker();
    });

    it('writes nothing and wakes nobody when the event transaction rolls back', async () => {
      const merchantId = await addMerchant();
      await addEndpoint(merchantId);
      await notificationsUntilMarker();
      const event = buildEvent('payment_intent.canceled', { id: 'pi_outbox' }, false, new Date());
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await insertEvent(tx, merchantId, 'pi_outbox', event);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await deliveriesOf(event.envelope.id), []);
      assert.deepEqual(await notificationsUntilMarker(), []);
    });
  });
}
