// When dispatchers are woken (docs/channels.md#where-the-dispatcher-runs): the fan-out trigger
// NOTIFYs `notification_deliveries` with the tenant only when it queued a delivery. A notification
// no channel takes wakes nobody; one a channel takes wakes once per transaction and tenant.
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DELIVERY_CHANNEL } from '../../src/notifications/dispatcher.js';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { eventually } from '../helpers/flow.js';

describe('dispatcher wake-up', () => {
  let tenantId: string;
  let db: any;
  let listener: any;
  const heard: string[] = [];

  beforeAll(async () => {
    const created = await createDemoLikeTenant('wake');
    tenantId = created.tenantId;
    // A channel that takes task_assigned only; its server leads nowhere: whether a send succeeds does not matter here.
    const ch = await api('/api/v1/notification-channels', {
      token: created.tokens.admin,
      body: {
        name: 'mail',
        kind: 'email',
        kinds: ['task_assigned'],
        settings: { host: 'localhost', port: 9, tls: 'none', from: 'Approvals <ops@wake.example.test>' },
      },
    });
    expect(ch.status, JSON.stringify(ch.body)).toBe(201);
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    listener = new pg.Client({ connectionString: inject('databaseUrl') });
    await listener.connect();
    listener.on('notification', (m: { channel: string; payload: string }) => {
      if (m.channel === DELIVERY_CHANNEL && m.payload === tenantId) heard.push(m.payload);
    });
    await listener.query(`listen ${DELIVERY_CHANNEL}`);
  });

  afterAll(async () => {
    await listener?.end();
    await db?.end();
  });

  const insert = (kinds: string[]) =>
    db.query(
      `insert into notifications (dedupe_key, tenant_id, user_id, kind, payload)
       select gen_random_uuid()::text, $1, 'bob', k, '{}' from unnest($2::text[]) as k`,
      [tenantId, kinds],
    );
  const queued = async () =>
    Number(
      (await db.query(`select count(*) as n from notification_deliveries where tenant_id = $1`, [tenantId])).rows[0].n,
    );

  it('a notification no channel takes wakes nobody; three it takes in one statement wake once', async () => {
    await insert(['instance_approved']);
    expect(await queued()).toBe(0);
    // The marker: whatever the first insert NOTIFYed would arrive before this one's.
    await insert(['task_assigned', 'task_assigned', 'task_assigned']);
    await eventually(
      async () => heard.length,
      (n) => n >= 1,
    );
    expect(await queued()).toBe(3);
    // A round trip on the listening connection: anything else sent with it has arrived by now.
    await listener.query('select 1');
    expect(heard).toEqual([tenantId]);
  });
});
