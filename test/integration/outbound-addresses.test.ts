// The outbound network rules through the API, as a hostile tenant administrator would try them:
// loopback and metadata spelled as IPv4-mapped IPv6 in hex (`::ffff:7f00:1`), full or compressed,
// bracketed in URLs, for each kind of outbound connection a tenant configures. Real listeners on
// 127.0.0.1 (HTTP and SMTP) must receive nothing. The classifier itself, every spelling, is in
// test/unit/outbound-addresses.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant, expectError } from '../helpers/api.js';
import { deploy, eventually, instance, start } from '../helpers/flow.js';
import { graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';
import { startMailbox, type Mailbox } from '../helpers/smtp-receiver.js';

const HOSTS = [
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:127.0.0.1',
  '0:0:0:0:0:0:0:1',
  '::1',
  '::127.0.0.1',
  '64:ff9b::7f00:1',
  '::ffff:a9fe:a9fe',
  '::ffff:a00:1',
  '[::ffff:7f00:1]',
  '127.1',
  '2130706433',
  '0x7f000001',
];

let t: Record<string, string>;
let receiver: Receiver;
let mailbox: Mailbox;
const hits: string[] = [];

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('ob'));
  receiver = await startReceiver((req, _body, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"reached":true}');
  });
  mailbox = await startMailbox();
});
afterAll(async () => {
  await receiver?.close();
  await mailbox?.close();
});

describe('outbound connections to loopback, private and metadata addresses in any spelling', () => {
  it('an e-mail channel whose SMTP host is one is 422 CHANNEL_REFUSED, and nothing is stored', async () => {
    for (const host of HOSTS) {
      const res = await api('/api/v1/notification-channels', {
        token: t.admin,
        body: {
          name: `m-${host}`,
          kind: 'email',
          settings: { host, port: mailbox.port, tls: 'none', from: 'a@example.com' },
        },
      });
      expectError(res, 422, 42270);
      expect(res.body.data.fields, host).toEqual([expect.objectContaining({ path: 'settings.host' })]);
    }
    const list = await api('/api/v1/notification-channels?pageSize=200', { token: t.admin });
    expect(list.body.data.items.filter((c: any) => c.name.startsWith('m-'))).toEqual([]);
    expect(mailbox.messages).toEqual([]);
  });

  it('a chat or webhook channel whose URL names one is refused', async () => {
    for (const host of ['127.1', '2130706433', '0x7f.1', '169.254.169.254']) {
      const res = await api('/api/v1/notification-channels', {
        token: t.admin,
        body: {
          name: `w-${host}`,
          kind: 'webhook',
          settings: { url: `http://${host}:${receiver.port}/hook`, secret: 's'.repeat(16) },
        },
      });
      expect([400, 422], `${host}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
    expect(hits).toEqual([]);
  });

  it('an httpCall node whose URL names one takes Failure, and the listener on 127.0.0.1 receives nothing', async () => {
    const k = 'ob_http';
    await deploy(
      t.admin,
      doc(
        k,
        [
          node('s', 'startTask'),
          node('h', 'httpCall', { url: '${msg.target}' }),
          user('ok', ['bob']),
          user('failed', ['carol']),
          node('end', 'end'),
        ],
        wire('s>h h>ok h>failed:Failure ok>end failed>end'),
      ),
    );
    const p = receiver.port;
    const targets = [
      `http://[::ffff:127.0.0.1]:${p}/a`,
      `http://[::ffff:7f00:1]:${p}/b`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${p}/c`,
      `http://[::1]:${p}/d`,
      `http://[::127.0.0.1]:${p}/e`,
      `http://[64:ff9b::7f00:1]:${p}/f`,
      `http://[::ffff:a9fe:a9fe]:${p}/g`,
      `http://0x7f.1:${p}/h`,
    ];
    const ids = [];
    for (const target of targets) ids.push(await start(t.alice, k, { target }));
    for (const id of ids) {
      const open = await eventually(
        async () =>
          (await api(`/api/v1/workflow/tasks?instanceId=${id}&status=pending,active`, { token: t.admin })).body.data
            .items as any[],
        (x) => x.length === 1,
        30_000,
      );
      expect(open[0].activityId).toBe('failed');
      const inst = await instance(t.admin, id);
      const notes = (inst.trail as any[]).map((e) => e.comment ?? '').join('\n');
      expect(notes, JSON.stringify(inst.variables)).toMatch(/loopback, private, link-local or metadata/);
      expect(inst.variables._http).toBeUndefined();
    }
    expect(hits).toEqual([]);
  });

  it('a network allowlist entry naming a forbidden address is 422 ALLOWLIST_REFUSED, and the list is unchanged', async () => {
    const ALLOWLIST = '/api/v1/network-allowlist';
    const put = (entries: string[]) =>
      api(ALLOWLIST, { method: 'PUT', token: t.admin, body: { entries: entries.map((entry) => ({ entry })) } });
    expect((await put(['10.20.0.0/16'])).status).toBe(200);
    for (const entry of [
      '127.0.0.0/8',
      '127.0.0.1',
      '0.0.0.0/0',
      '::/0',
      '::1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '169.254.0.0/16',
      'fe80::/10',
      'fd00:ec2::254',
    ]) {
      const res = await put(['10.30.0.0/16', entry]);
      expectError(res, 422, 42280);
      expect(res.body.data.fields, entry).toEqual([expect.objectContaining({ path: 'entries.1.entry' })]);
    }
    expect((await api(ALLOWLIST, { token: t.admin })).body.data.entries.map((e: any) => e.entry)).toEqual([
      '10.20.0.0/16',
    ]);
    // Private addresses in any spelling stay the tenant's to open.
    expect((await put(['::ffff:a00:0/104', '10.0.0.0/8', 'fd00::/8'])).status).toBe(200);
    expect((await put([])).status).toBe(200);
  });
});
