import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { api, baseUrl, createDemoLikeTenant, login } from '../helpers/api.js';
import { deploy, eventually, oneStep, start } from '../helpers/flow.js';

const SOCKET = '/api/v1/ws/notifications';
const wsUrl = (query: string) => `${baseUrl().replace(/^http/, 'ws')}${SOCKET}${query}`;

/** A connected client that records every message it receives. */
class Client {
  readonly messages: any[] = [];
  private wake: (() => void) | null = null;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      this.wake?.();
    });
  }

  notifications() {
    return this.messages.filter((m) => m.type === 'notification').map((m) => m.notification);
  }

  /** The first received message matching `pred` (already received or arriving within the timeout). */
  async waitFor(pred: (m: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(pred);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  send(msg: unknown) {
    this.ws.send(JSON.stringify(msg));
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

const open: Client[] = [];

/** Connects and waits for the `ready` hello. */
async function connect(token: string, extra = ''): Promise<{ client: Client; ready: any }> {
  const ws = new WebSocket(wsUrl(`?token=${encodeURIComponent(token)}${extra}`));
  const client = new Client(ws);
  open.push(client);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  return { client, ready: await client.waitFor((m) => m.type === 'ready') };
}

/** Attempts an upgrade that should be refused; answers the HTTP status and body, and whether a socket ever opened. */
function refused(query: string, path = SOCKET): Promise<{ status: number; body: any; opened: boolean }> {
  const ws = new WebSocket(`${baseUrl().replace(/^http/, 'ws')}${path}${query}`);
  let opened = false;
  ws.on('open', () => {
    opened = true;
    ws.close();
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, opened }));
    });
    ws.once('error', (err) => (opened ? undefined : reject(err)));
    setTimeout(() => reject(new Error('neither refused nor opened')), 10_000).unref();
  });
}

const list = async (token: string, query = '') => {
  const res = await api(`/api/v1/notifications${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let a: Record<string, string>;
let tenantA: string;
let b: Record<string, string>;

beforeAll(async () => {
  ({ tokens: a, tenantId: tenantA } = await createDemoLikeTenant('na'));
  // A second tenant with the same user ids: `bob` there is somebody else.
  ({ tokens: b } = await createDemoLikeTenant('nb'));
  await deploy(a.admin, oneStep('notify-bob', { approver: { type: 'user', userIds: ['bob'] } }));
  await deploy(b.admin, oneStep('notify-bob', { approver: { type: 'user', userIds: ['bob'] } }));
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
});

describe('WebSocket: upgrade and live push', () => {
  it('a valid token gets ready, and a new task for the user is pushed at once', async () => {
    const { client, ready } = await connect(a.bob);
    expect(ready).toMatchObject({
      type: 'ready',
      userId: 'bob',
      lastId: expect.any(String),
      unread: expect.any(Number),
    });

    const started = Date.now();
    const id = await start(a.alice, 'notify-bob', {}, 'push-1');
    const msg = await client.waitFor((m) => m.type === 'notification' && m.notification.instanceId === id, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(msg.notification).toMatchObject({
      id: expect.any(String),
      kind: 'task_assigned',
      instanceId: id,
      taskId: expect.any(String),
      payload: expect.objectContaining({ activityId: 'approve', processKey: 'notify-bob', businessKey: 'push-1' }),
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(BigInt(msg.notification.id)).toBeGreaterThan(BigInt(ready.lastId));
    await client.close();
  });

  it('answers ping with pong and an unknown message with an error, and stays open', async () => {
    const { client } = await connect(a.carol);
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong');
    client.send({ type: 'dance' });
    await client.waitFor((m) => m.type === 'error');
    client.ws.send('not json');
    await eventually(
      async () => client.messages.filter((m) => m.type === 'error').length,
      (n) => n === 2,
      5_000,
    );
    client.send({ type: 'resume', afterId: 'x' });
    await eventually(
      async () => client.messages.filter((m) => m.type === 'error').length,
      (n) => n === 3,
      5_000,
    );
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    await client.close();
  });

  it('refuses a missing, malformed, forged or expired token at the upgrade with 401, and no socket opens', async () => {
    const secret = new TextEncoder().encode(inject('jwtSecret'));
    const signed = (exp: string | number, key = secret) =>
      new SignJWT({ tid: tenantA })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('bob')
        .setIssuer('approval-service')
        .setAudience('approval-api')
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key);
    const forged = await signed('1h', new TextEncoder().encode('x'.repeat(48)));
    const expired = await signed(Math.floor(Date.now() / 1000) - 60);
    for (const query of ['', '?token=', '?token=garbage', `?token=${forged}`, `?token=${expired}`]) {
      const res = await refused(query);
      expect(res.status, query.slice(0, 20)).toBe(401);
      expect(res.body.code).toBeGreaterThanOrEqual(40100);
      expect(res.body.data).toBeNull();
      expect(res.opened).toBe(false);
    }
  });

  it('refuses the token of a deactivated user with 401', async () => {
    const created = await api('/api/v1/users', {
      token: a.admin,
      body: { id: 'quiet', username: 'quiet', password: 'pw-quiet', roles: ['employee'] },
    });
    expect(created.status).toBe(201);
    const token = await login('quiet', 'pw-quiet', tenantA);
    await connect(token).then(({ client }) => client.close());
    expect(
      (await api('/api/v1/users/quiet', { method: 'PATCH', token: a.admin, body: { active: false } })).status,
    ).toBe(200);
    expect((await refused(`?token=${token}`)).status).toBe(401);
  });

  it('an open socket delivers nothing after its token expired: it closes with 4401', async () => {
    const secret = new TextEncoder().encode(inject('jwtSecret'));
    const expiresAt = Math.floor(Date.now() / 1000) + 3;
    const shortLived = await new SignJWT({ tid: tenantA })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('bob')
      .setIssuer('approval-service')
      .setAudience('approval-api')
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(secret);
    const { client } = await connect(shortLived);
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    await sleep(Math.max(0, expiresAt * 1000 - Date.now()) + 500);
    // A task for bob after the expiry: it is in bob's outbox, and it must not reach this socket.
    const id = await start(a.alice, 'notify-bob', {}, 'after-expiry');
    const ownList = await eventually(
      () => list(a.bob, '?pageSize=50'),
      (page: any) => page.items.some((n: any) => n.instanceId === id),
    );
    expect(ownList.items.some((n: any) => n.instanceId === id)).toBe(true);
    expect(await closed).toBe(4401);
    expect(client.notifications().some((n) => n.instanceId === id)).toBe(false);
  });

  it('an open socket of a user deactivated meanwhile delivers nothing more: it closes with 4401', async () => {
    expect(
      (
        await api('/api/v1/users', {
          token: a.admin,
          body: { id: 'leaver', username: 'leaver', password: 'pw-leaver', roles: ['employee'] },
        })
      ).status,
    ).toBe(201);
    // bob approves, then leaver gets a copy: leaver holds no task, so leaver can be deactivated meanwhile.
    const dsl: any = oneStep('copy-leaver', { approver: { type: 'user', userIds: ['bob'] } });
    dsl.metadata.nodes.splice(2, 0, {
      id: 'copy',
      type: 'ccTask',
      name: 'Copy',
      configuration: { ccUserIds: ['leaver'] },
    });
    dsl.metadata.connections = [
      { fromId: 'start', toId: 'approve', type: 'Success' },
      { fromId: 'approve', toId: 'copy', type: 'Success' },
      { fromId: 'copy', toId: 'end', type: 'Success' },
    ];
    await deploy(a.admin, dsl);
    const { client } = await connect(await login('leaver', 'pw-leaver', tenantA));
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    // While leaver is active, a copy arrives on the socket.
    const before = await start(a.alice, 'copy-leaver', {}, 'leaver-1');
    const approveFirst = async (id: string) => {
      const task = await eventually(
        async () => (await api(`/api/v1/workflow/tasks?instanceId=${id}`, { token: a.bob })).body.data.items[0],
        (t: any) => !!t,
      );
      expect((await api(`/api/v1/workflow/tasks/${task.id}/approve`, { token: a.bob, body: {} })).status).toBe(200);
    };
    await approveFirst(before);
    await client.waitFor((m) => m.type === 'notification' && m.notification.instanceId === before);
    // Deactivated, then another copy: recorded in leaver's outbox, not delivered to the open socket.
    const after = await start(a.alice, 'copy-leaver', {}, 'leaver-2');
    expect(
      (await api('/api/v1/users/leaver', { method: 'PATCH', token: a.admin, body: { active: false } })).status,
    ).toBe(200);
    await approveFirst(after);
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    try {
      await eventually(
        async () =>
          (
            await db.query(
              `select count(*)::int as n from notifications where tenant_id = $1 and user_id = 'leaver' and instance_id = $2`,
              [tenantA, after],
            )
          ).rows[0].n,
        (n: number) => n > 0,
      );
    } finally {
      await db.end();
    }
    expect(await closed).toBe(4401);
    expect(client.notifications().some((n) => n.instanceId === after)).toBe(false);
  });

  it('answers another path with 404, a bad afterId with 400, and a plain GET with 426 Upgrade Required', async () => {
    expect((await refused(`?token=${a.bob}`, '/api/v1/ws/elsewhere')).status).toBe(404);
    expect((await refused(`?token=${a.bob}&afterId=-1`)).status).toBe(400);
    const plain = await api(SOCKET);
    expect(plain.status).toBe(426);
    expect(plain.headers.get('upgrade')).toBe('websocket');
    expect(plain.body).toMatchObject({ code: 42600, data: null });
  });
});

describe('WebSocket: a claimed pool task', () => {
  it('the other pool members get task_unavailable live; the claimer and outsiders get nothing', async () => {
    await deploy(a.admin, oneStep('notify-pool', { approver: { type: 'role', roleIds: ['finance'] } }));
    const grace = (await connect(a.grace)).client;
    const frank = (await connect(a.frank)).client;
    const id = await start(a.alice, 'notify-pool', {}, 'pool-1');
    const offered = await grace.waitFor(
      (m) => m.type === 'notification' && m.notification.instanceId === id && m.notification.kind === 'task_claimable',
    );
    const taskId = offered.notification.taskId;
    const claim = await api(`/api/v1/workflow/tasks/${taskId}/claim`, { token: a.frank, body: {} });
    expect(claim.status).toBe(200);
    const gone = await grace.waitFor(
      (m) =>
        m.type === 'notification' && m.notification.instanceId === id && m.notification.kind === 'task_unavailable',
    );
    expect(gone.notification).toMatchObject({
      taskId,
      payload: expect.objectContaining({ activityId: 'approve', claimedBy: 'frank', businessKey: 'pool-1' }),
    });
    // One per member: grace's list has it once, frank (who claimed) none.
    const unavailable = async (token: string) =>
      ((await list(token, '?kind=task_unavailable&pageSize=100')).items as any[]).filter((n) => n.taskId === taskId);
    expect(await unavailable(a.grace)).toHaveLength(1);
    expect(await unavailable(a.frank)).toHaveLength(0);
    expect(frank.notifications().filter((n) => n.kind === 'task_unavailable')).toEqual([]);
    // Somebody outside the pool hears nothing of it.
    expect(await unavailable(a.bob)).toHaveLength(0);
    await grace.close();
    await frank.close();
  });
});

describe('WebSocket: offline delivery', () => {
  it('notifications created while disconnected arrive on reconnect with ?afterId, oldest first, exactly once', async () => {
    const first = await connect(a.bob);
    const mark = first.ready.lastId as string;
    await first.client.close();

    const ids = [
      await start(a.alice, 'notify-bob', {}, 'offline-1'),
      await start(a.alice, 'notify-bob', {}, 'offline-2'),
    ];
    // Wait until both rows exist (the projection commits before start answers, but be patient).
    await eventually(
      () => list(a.bob, '?pageSize=200'),
      (d) => ids.every((id) => d.items.some((n: any) => n.instanceId === id)),
    );

    const { client } = await connect(a.bob, `&afterId=${mark}`);
    const resumed = await client.waitFor((m) => m.type === 'resumed');
    expect(resumed).toMatchObject({ afterId: mark, count: 2 });
    const got = client.notifications();
    expect(got.map((n) => n.instanceId)).toEqual(ids);
    expect(got.every((n) => n.kind === 'task_assigned' && BigInt(n.id) > BigInt(mark))).toBe(true);
    expect(BigInt(got[0].id)).toBeLessThan(BigInt(got[1].id));
    expect(resumed.lastId).toBe(got[1].id);
    // `ready` comes first, before the replay.
    expect(client.messages[0].type).toBe('ready');

    // A resume message does the same on an open socket; nothing already sent is sent twice.
    client.send({ type: 'resume', afterId: mark });
    const again = await client.waitFor((m) => m.type === 'resumed' && m !== resumed);
    expect(again.count).toBe(0);
    expect(client.notifications()).toHaveLength(2);
    await client.close();
  });

  it('a resume message after connect replays from that id', async () => {
    const { client, ready } = await connect(a.bob);
    const all = (await list(a.bob, '?pageSize=200')).items as any[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const from = all[1].id; // replays only the newest one
    client.send({ type: 'resume', afterId: Number(from) });
    const resumed = await client.waitFor((m) => m.type === 'resumed');
    expect(resumed.count).toBe(1);
    expect(client.notifications().map((n) => n.id)).toEqual([all[0].id]);
    expect(ready.lastId).toBe(all[0].id);
    await client.close();
  });
});

describe('WebSocket: the LISTEN connection', () => {
  it('comes back after PostgreSQL drops it, and what was sent meanwhile still arrives', async () => {
    const { client } = await connect(a.bob);
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    try {
      const killed = await db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'approvals-notifier'`,
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(1);
      // Sent while the listener is (probably) down: the catch-up after reconnecting reads it from the table.
      const id = await start(a.alice, 'notify-bob', {}, 'after-drop');
      await client.waitFor((m) => m.type === 'notification' && m.notification.instanceId === id, 20_000);
      await eventually(
        async () =>
          (
            await db.query(
              `select count(*)::int as n from pg_stat_activity where application_name = 'approvals-notifier'`,
            )
          ).rows[0].n,
        (n) => n >= 1,
      );
    } finally {
      await db.end();
      await client.close();
    }
  });
});

describe('isolation', () => {
  it("another tenant's user with the same id, and another user, get nothing of bob's", async () => {
    const bobA = await connect(a.bob);
    const bobB = await connect(b.bob);
    const carolA = await connect(a.carol);
    const id = await start(a.alice, 'notify-bob', {}, 'isolated');
    await bobA.client.waitFor((m) => m.type === 'notification' && m.notification.instanceId === id);
    await sleep(1_000);
    expect(bobB.client.notifications()).toEqual([]);
    expect(carolA.client.notifications()).toEqual([]);

    // Tenant B's bob resuming from 0 sees only his own tenant's notifications.
    const idB = await start(b.alice, 'notify-bob', {}, 'tenant-b');
    await bobB.client.waitFor((m) => m.type === 'notification' && m.notification.instanceId === idB);
    bobB.client.send({ type: 'resume', afterId: 0 });
    await bobB.client.waitFor((m) => m.type === 'resumed');
    expect(bobB.client.notifications().map((n) => n.instanceId)).toEqual([idB]);
    expect(bobA.client.notifications().some((n) => n.instanceId === idB)).toBe(false);

    // Neither lists nor marks bob's notifications of tenant A.
    const bobsId = (await list(a.bob)).items[0].id;
    expect((await list(b.bob)).items.map((n: any) => n.instanceId)).toEqual([idB]);
    expect((await list(a.carol)).total).toBe(0);
    expect((await api(`/api/v1/notifications/${bobsId}/read`, { method: 'POST', token: b.bob })).status).toBe(404);
    expect((await api(`/api/v1/notifications/${bobsId}/read`, { method: 'POST', token: a.carol })).status).toBe(404);
    expect((await list(a.bob, '?pageSize=1')).items[0].readAt).toBeNull();
    await Promise.all([bobA.client.close(), bobB.client.close(), carolA.client.close()]);
  });
});

describe('REST: /api/v1/notifications', () => {
  it("lists the caller's notifications newest first, paged, with the unread filter", async () => {
    const data = await list(a.bob, '?page=1&pageSize=2');
    expect(data).toMatchObject({ page: 1, pageSize: 2, total: expect.any(Number) });
    expect(data.items).toHaveLength(2);
    expect(BigInt(data.items[0].id)).toBeGreaterThan(BigInt(data.items[1].id));
    expect(data.items[0]).toMatchObject({
      kind: 'task_assigned',
      readAt: null,
      payload: expect.objectContaining({ processKey: 'notify-bob' }),
    });
    const second = await list(a.bob, '?page=2&pageSize=2');
    expect(second.items[0]?.id).not.toBe(data.items[1].id);
    expect((await list(a.bob, '?kind=task_assigned')).total).toBe(data.total);
    expect((await list(a.bob, '?kind=urge')).total).toBe(0);
    expect((await api('/api/v1/notifications?pageSize=500', { token: a.bob })).status).toBe(400);
    expect((await api('/api/v1/notifications?unread=maybe', { token: a.bob })).status).toBe(400);
    expect((await api('/api/v1/notifications')).status).toBe(401);
  });

  it('marks one read (idempotently), then all read', async () => {
    const before = await list(a.bob, '?unread=true&pageSize=200');
    expect(before.total).toBeGreaterThanOrEqual(3);
    const target = before.items[1];

    const read = await api(`/api/v1/notifications/${target.id}/read`, { method: 'POST', token: a.bob });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: target.id, readAt: expect.stringMatching(/Z$/) });
    const repeat = await api(`/api/v1/notifications/${target.id}/read`, { method: 'POST', token: a.bob, body: {} });
    expect(repeat.body.data.readAt).toBe(read.body.data.readAt);
    expect((await list(a.bob, '?unread=true&pageSize=200')).total).toBe(before.total - 1);

    expect((await api('/api/v1/notifications/999999999/read', { method: 'POST', token: a.bob })).status).toBe(404);
    expect((await api('/api/v1/notifications/abc/read', { method: 'POST', token: a.bob })).status).toBe(404);
    expect(
      (await api(`/api/v1/notifications/${target.id}/read`, { method: 'POST', token: a.bob, body: { foo: 1 } })).status,
    ).toBe(400);

    const all = await api('/api/v1/notifications/read-all', { method: 'POST', token: a.bob });
    expect(all.status).toBe(200);
    expect(all.body.data.updated).toBe(before.total - 1);
    expect((await list(a.bob, '?unread=true')).total).toBe(0);
    expect((await api('/api/v1/notifications/read-all', { method: 'POST', token: a.bob })).body.data.updated).toBe(0);

    // The hello on connect carries the unread count.
    const { client, ready } = await connect(a.bob);
    expect(ready.unread).toBe(0);
    await client.close();
  });

  it('is in the OpenAPI document, with the WebSocket', async () => {
    const doc = (await api('/openapi.json')).body as any;
    expect(doc.paths['/api/v1/notifications'].get).toBeDefined();
    expect(doc.paths['/api/v1/notifications/{id}/read'].post).toBeDefined();
    expect(doc.paths['/api/v1/notifications/read-all'].post).toBeDefined();
    expect(doc.paths['/api/v1/ws/notifications'].get).toBeDefined();
  });
});
