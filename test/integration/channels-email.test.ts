// The e-mail channel against a real SMTP server in this process (docs/channels.md): a new task's
// message arrives with both parts, a stable Message-ID and the instance's thread headers; its
// Approve link opens a confirm page (GET decides nothing), approves once (POST), and says "already
// used" after; refused recipients, missing addresses and bad settings end as 4xx or delivery-log
// entries, never a 500 and never a lost task.
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant, createTenant, expectError } from '../helpers/api.js';
import { deploy, eventually, myTask, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';
import { startMailbox, to, type Mailbox } from '../helpers/smtp-receiver.js';
import { PNG, pdfWithText, upload } from '../helpers/attachments.js';

const FROM = 'Approvals <approvals@mail.example.test>';

describe('e-mail channel', () => {
  let t: Record<string, string>;
  let mailbox: Mailbox;
  let channelId: string;
  let db: any;

  const channels = (body: unknown, token = t.admin) => api('/api/v1/notification-channels', { token, body });
  const deliveries = async (query = '') =>
    (await api(`/api/v1/notification-deliveries?pageSize=200${query}`, { token: t.admin })).body.data.items as any[];
  const emailChannel = (port: number, extra: Record<string, unknown> = {}) => ({
    name: `mail-${port}`,
    kind: 'email',
    settings: { host: 'localhost', port, tls: 'none', from: FROM, ...extra },
  });
  const patchUser = async (id: string, body: unknown) => {
    const res = await api(`/api/v1/users/${id}`, { method: 'PATCH', token: t.admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  /** The approve and reject links in a message's text part. */
  const linksOf = (text: string) => {
    const approve = text.match(/(http:\/\/\S+\/l\/\S+\?action=approve)/)?.[1];
    const reject = text.match(/(http:\/\/\S+\/l\/\S+\?action=reject)/)?.[1];
    return { approve: approve!, reject: reject! };
  };
  const page = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url.replace(/^http:\/\/[^/]+/, baseUrl()), {
      method: form ? 'POST' : 'GET',
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    return { status: res.status, html: await res.text(), headers: res.headers };
  };
  const taskStatus = async (taskId: string) =>
    (await api(`/api/v1/workflow/tasks/${taskId}`, { token: t.admin })).body.data;

  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('mail'));
    mailbox = await startMailbox({ refuse: (a) => a.startsWith('nobody@') });
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    await deploy(
      t.admin,
      oneStep('mail_leave', users('bob'), {
        processInfo: {
          formType: 'design',
          form: {
            fields: [
              { name: 'days', label: 'Days', type: 'number' },
              {
                name: 'kind',
                label: 'Kind',
                type: 'select',
                options: ['annual', { value: 'sick', label: 'Sick leave' }],
              },
              { name: 'note', label: 'Note', type: 'text' },
            ],
          },
        },
        nodeInfo: { formPermissions: { note: 'h' } },
      }),
    );
    await patchUser('bob', { email: 'bob@corp.example.test' });
    const res = await channels(emailChannel(mailbox.port));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    channelId = res.body.data.id;
  });

  afterAll(async () => {
    await mailbox?.close();
    await db?.end();
  });

  it('users carry an optional e-mail address', async () => {
    const bob = (await api('/api/v1/users/bob', { token: t.admin })).body.data;
    expect(bob.email).toBe('bob@corp.example.test');
    expect((await api('/api/v1/users/carol', { token: t.admin })).body.data.email).toBeNull();
    const bad = await api('/api/v1/users/carol', {
      method: 'PATCH',
      token: t.admin,
      body: { email: 'not-an-address' },
    });
    expectError(bad, 400, 40001);
  });

  it('answers the channel without its secrets', async () => {
    const res = await channels({
      ...emailChannel(mailbox.port, { user: 'u', password: 'pw-secret' }),
      name: 'with-auth',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      kind: 'email',
      enabled: true,
      secretsSet: ['password'],
      settings: { host: 'localhost', port: mailbox.port, tls: 'none', user: 'u', from: FROM },
    });
    expect(JSON.stringify(res.body)).not.toContain('pw-secret');
    expect(res.body.data.kinds).toEqual(expect.arrayContaining(['task_assigned', 'urge', 'task_overdue', 'cc']));
    // A replace without the password keeps it; the listing never shows it either.
    const put = await api(`/api/v1/notification-channels/${res.body.data.id}`, {
      method: 'PUT',
      token: t.admin,
      body: { ...emailChannel(mailbox.port, { user: 'u' }), name: 'with-auth', enabled: false },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toMatchObject({ enabled: false, secretsSet: ['password'] });
    const list = await api('/api/v1/notification-channels', { token: t.admin });
    expect(list.body.data.total).toBe(2);
    expect(JSON.stringify(list.body)).not.toContain('pw-secret');
    const del = await api(`/api/v1/notification-channels/${res.body.data.id}`, { method: 'DELETE', token: t.admin });
    expect(del.body.data).toEqual({ deleted: true });
  });

  it('sends a new task to its approver: both parts, a stable Message-ID, the instance thread, the form summary', async () => {
    const instanceId = await start(t.alice, 'mail_leave', { days: 3, kind: 'sick', note: 'private' }, 'LV-1');
    const [mail] = await mailbox.waitFor((all) =>
      to('bob@corp.example.test')(all).filter((m) => m.text?.includes('LV-1')),
    );
    expect(mail.subject).toBe('[Process mail_leave] LV-1 Approval needed: Approve');
    expect(mail.from?.value).toEqual([{ name: 'Approvals', address: 'approvals@mail.example.test' }]);
    expect(mail.messageId).toMatch(new RegExp(`^<n\\d+\\.${channelId}@mail\\.example\\.test>$`));
    expect(mail.inReplyTo).toBe(`<instance.${instanceId}@mail.example.test>`);
    expect([mail.references].flat()).toEqual([`<instance.${instanceId}@mail.example.test>`]);
    expect(mail.text).toContain('Initiator: alice');
    expect(mail.text).toContain('Days: 3');
    expect(mail.text).toContain('Kind: Sick leave');
    expect(mail.text).toContain('Why you: user list');
    expect(mail.text).not.toContain('private'); // hidden at bob's node
    expect(mail.html).toContain('<a href="http://');
    expect(mail.html).toContain('>Approve</a>');
    expect(mail.html).toContain('>Reject</a>');
    const { approve, reject } = linksOf(mail.text!);
    expect(approve).toBeTruthy();
    expect(reject).toBeTruthy();

    const task = await myTask(t.bob, instanceId);
    // Opening the link (a mail scanner would) decides nothing: it shows the task and a confirm button.
    const shown = await page(approve);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/text\/html/);
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    expect(shown.html).toContain('<form method="post">');
    expect(shown.html).toContain('>Approve</button>');
    expect(shown.html).not.toContain('>Reject</button>');
    expect(shown.html).toContain('LV-1');
    expect(shown.html).not.toContain('private');
    expect((await taskStatus(task.id)).status).toBe('active');
    expect((await page(`${approve.split('?')[0]}?action=maybe`)).status).toBe(400);

    // The reject page asks for a reason: without one nothing is decided.
    const noReason = await page(reject, { action: 'reject', comment: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.html).toContain('Give a reason for rejecting.');
    expect((await taskStatus(task.id)).status).toBe('active');
    // A comment past the form's 2,000 characters is refused, not cut.
    const tooLong = await page(approve, { action: 'approve', comment: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toContain('Too much text');
    expect((await taskStatus(task.id)).status).toBe('active');

    const approved = await page(approve, { action: 'approve', comment: 'fine' });
    expect(approved.status, approved.html).toBe(200);
    expect(approved.html).toContain('Approved');
    const after = await taskStatus(task.id);
    expect(after).toMatchObject({ status: 'completed', result: 'approved', assignee: 'bob' });

    const again = await page(approve, { action: 'approve' });
    expect(again.status).toBe(410);
    expect(again.html).toContain('This link was already used');
    const reopened = await page(approve);
    expect(reopened.status).toBe(410);
    expect(reopened.html).toContain('already used');
    const rejectLater = await page(reject);
    expect(rejectLater.status).toBe(410);

    // The delivery log has it, sent, with the same Message-ID and what the server said.
    const log = await eventually(
      () => deliveries(`&userId=bob&kind=task_assigned`),
      (rows) => rows.some((r) => r.status === 'sent' && r.messageId === mail.messageId),
    );
    const row = log.find((r) => r.messageId === mail.messageId);
    expect(row).toMatchObject({ channelId, status: 'sent', attempts: 1, address: 'bob@corp.example.test' });
    expect(row.response).toMatch(/^250/);
  });

  it('lists the instance’s files with signed links that download the bytes without a login; a hidden field’s file is left out', async () => {
    await deploy(
      t.admin,
      oneStep('mail_files', users('bob'), {
        processInfo: {
          formType: 'design',
          form: {
            fields: [
              { name: 'amount', label: 'Amount', type: 'number' },
              { name: 'receipt', label: 'Receipt', type: 'attachment' },
              { name: 'contract', label: 'Contract', type: 'attachment' },
            ],
          },
        },
        nodeInfo: { formPermissions: { contract: 'h' } },
      }),
    );
    const receipt = await upload(baseUrl(), t.alice!, PNG, 'receipt 07.png');
    const contract = await upload(baseUrl(), t.alice!, pdfWithText('Secret terms'), 'contract.pdf');
    expect([receipt.status, contract.status]).toEqual([201, 201]);
    await start(
      t.alice,
      'mail_files',
      { amount: 42, receipt: receipt.body.data.id, contract: contract.body.data.id },
      'EXP-7',
    );
    const [mail] = await mailbox.waitFor((all) =>
      to('bob@corp.example.test')(all).filter((m) => m.text?.includes('EXP-7')),
    );
    // The text part: a list after the facts, one file a line with its size and link.
    const line = mail.text!.match(/^- receipt 07\.png \(70 B\): (http:\/\/\S+)$/m);
    expect(mail.text).toContain('\nAttachments:\n');
    expect(line, mail.text).not.toBeNull();
    const url = line![1]!;
    expect(url).toMatch(
      new RegExp(`/api/v1/attachments/${receipt.body.data.id}/content\\?token=\\d+\\.[\\w-]+&download=1$`),
    );
    // The HTML part: the same link on the file's name, under a heading.
    expect(mail.html).toContain('>Attachments</h2>');
    expect(mail.html).toContain(`<a href="${url.replace(/&/g, '&amp;')}" style="color:#0969da">receipt 07.png</a>`);
    // A file field is no summary fact (its value is ids): its files are the list.
    expect(mail.text).toContain('Amount: 42');
    expect(mail.text).not.toMatch(/^Receipt: /m);
    // The field hidden at bob's node hides its file, as in the console.
    expect(`${mail.text}${mail.html}`).not.toContain('contract.pdf');

    // The link is the credential: no login, the bytes as uploaded, as a download.
    const res = await fetch(url.replace(/^http:\/\/[^/]+/, baseUrl()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // A forged token opens nothing.
    const forged = await fetch(url.replace(/^http:\/\/[^/]+/, baseUrl()).replace(/token=(\d+)\./, 'token=$1.x'));
    expect(forged.status).not.toBe(200);
  });

  it('an urge reaches the approver with fresh links; a rejection through the page records its reason', async () => {
    const instanceId = await start(t.alice, 'mail_leave', { days: 2 }, 'LV-3');
    await mailbox.waitFor((all) => to('bob@corp.example.test')(all).filter((m) => m.text?.includes('LV-3')));
    const task = await myTask(t.bob, instanceId);
    const urged = await api(`/api/v1/workflow/tasks/urge/${task.id}`, {
      token: t.alice,
      body: { message: 'today please' },
    });
    expect(urged.status, JSON.stringify(urged.body)).toBe(200);
    const [mail] = await mailbox.waitFor((all) =>
      to('bob@corp.example.test')(all).filter((m) => m.subject?.includes('Reminder') && m.text?.includes('LV-3')),
    );
    expect(mail.subject).toBe('[Process mail_leave] LV-3 Reminder: Approve is waiting for you');
    expect(mail.text).toContain('Message: today please');
    expect(mail.inReplyTo).toBe(`<instance.${instanceId}@mail.example.test>`);
    const { reject } = linksOf(mail.text!);
    const shown = await page(reject);
    expect(shown.html).toContain('Reason for rejecting (required)');
    expect(shown.html).not.toContain('>Approve</button>');
    const rejected = await page(reject, { action: 'reject', comment: 'too many days' });
    expect(rejected.status, rejected.html).toBe(200);
    expect(rejected.html).toContain('Rejected');
    expect(await taskStatus(task.id)).toMatchObject({ status: 'completed', result: 'rejected' });
    const detail = (await api(`/api/v1/workflow/process-instances/${instanceId}`, { token: t.admin })).body.data;
    expect(detail.trail.find((e: any) => e.type === 'reject')).toMatchObject({
      userId: 'bob',
      comment: 'too many days',
      detail: { channel: 'link', via: 'email' },
    });
  });

  it('the recipient’s language chooses the wording', async () => {
    await deploy(t.admin, oneStep('mail_zh', users('frank')));
    await patchUser('frank', { email: 'frank@corp.example.test', locale: 'zh-CN' });
    expect((await api('/api/v1/users/frank', { token: t.admin })).body.data.locale).toBe('zh-CN');
    expectError(
      await api('/api/v1/users/frank', { method: 'PATCH', token: t.admin, body: { locale: 'fr' } }),
      400,
      40001,
    );
    await start(t.alice, 'mail_zh', { days: 1 }, 'ZH-1');
    const [mail] = await mailbox.waitFor(to('frank@corp.example.test'));
    expect(mail.subject).toBe('[Process mail_zh] ZH-1 待审批：Approve');
    expect(mail.text).toContain('发起人: alice');
    expect(mail.html).toContain('>同意</a>');
    // The link page speaks the link user's language too.
    const shown = await page(linksOf(mail.text!).approve);
    expect(shown.html).toContain('<html lang="zh-CN">');
    expect(shown.html).toContain('>同意</button>');
  });

  it('a reassigned task’s link says so in words', async () => {
    const instanceId = await start(t.alice, 'mail_leave', { days: 1 }, 'LV-2');
    const [mail] = await mailbox.waitFor((all) =>
      to('bob@corp.example.test')(all).filter((m) => m.text?.includes('LV-2')),
    );
    const task = await myTask(t.bob, instanceId);
    const moved = await api(`/api/v1/workflow/tasks/${task.id}/reassign`, {
      token: t.admin,
      body: { assigneeUserId: 'carol', reason: 'holiday' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const shown = await page(linksOf(mail.text!).approve);
    expect(shown.status).toBe(410);
    expect(shown.html).toContain('This task is now with someone else');
    const tampered = await page(linksOf(mail.text!).approve.replace(/\/l\/[^.]+/, '/l/xyz'));
    expect(tampered.status).toBe(401);
    expect(tampered.html).toContain('This link is not valid');
  });

  it('a recipient without an address is skipped, a refused one fails after its attempts, and the task stays', async () => {
    await deploy(t.admin, oneStep('mail_refused', users('dave')));
    await deploy(t.admin, oneStep('mail_noaddr', users('erin')));
    await patchUser('dave', { email: 'nobody@corp.example.test' });
    const refusedId = await start(t.alice, 'mail_refused', {});
    const noAddrId = await start(t.alice, 'mail_noaddr', {});
    const failed = await eventually(
      () => deliveries('&userId=dave'),
      (rows) => rows.some((r) => r.status === 'failed'),
    );
    expect(failed.find((r) => r.status === 'failed')).toMatchObject({
      kind: 'task_assigned',
      address: 'nobody@corp.example.test',
    });
    expect(failed.find((r) => r.status === 'failed').lastError).toMatch(/550/);
    const skipped = await eventually(
      () => deliveries('&userId=erin'),
      (rows) => rows.some((r) => r.status === 'skipped'),
    );
    expect(skipped[0].lastError).toBe('the recipient has no e-mail address');
    // The tasks are there all the same.
    await myTask(t.dave, refusedId);
    await myTask(t.erin, noAddrId);
  });

  it('a server that is down is retried, then failed in the log; the test endpoint says what the server said', async () => {
    const down = await startMailbox();
    const port = down.port;
    await down.close();
    const ch = await channels({ ...emailChannel(port), name: 'down' });
    expect(ch.status).toBe(201);
    const ok = await api(`/api/v1/notification-channels/${channelId}/test`, {
      token: t.admin,
      body: { to: 'ops@corp.example.test' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ ok: true, to: 'ops@corp.example.test', error: null });
    expect(ok.body.data.response).toMatch(/^250/);
    await mailbox.waitFor(to('ops@corp.example.test'));
    const refused = await api(`/api/v1/notification-channels/${channelId}/test`, {
      token: t.admin,
      body: { to: 'nobody@corp.example.test' },
    });
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ ok: false, status: 550 });
    const unreachable = await api(`/api/v1/notification-channels/${ch.body.data.id}/test`, {
      token: t.admin,
      body: { to: 'ops@corp.example.test' },
    });
    expect(unreachable.status).toBe(200);
    expect(unreachable.body.data.ok).toBe(false);
    expect(unreachable.body.data.error).toMatch(/ECONNREFUSED|connect/i);
    // The admin has no e-mail address: the test asks for `to`.
    expectError(await api(`/api/v1/notification-channels/${channelId}/test`, { token: t.admin, body: {} }), 422, 42270);

    // A real notification through the down channel: retried NOTIFY_MAX_ATTEMPTS times, then failed.
    await deploy(t.admin, oneStep('mail_down', users('bob')));
    const id = await start(t.alice, 'mail_down', {});
    const rows = await eventually(
      () => deliveries(`&channelId=${ch.body.data.id}`),
      (r) => r.some((x) => x.status === 'failed'),
      30_000,
    );
    expect(rows.find((x) => x.status === 'failed')).toMatchObject({ attempts: 3, userId: 'bob' });
    await myTask(t.bob, id);
    await api(`/api/v1/notification-channels/${ch.body.data.id}`, { method: 'DELETE', token: t.admin });
  });

  it('refuses bad settings and bad addresses with 4xx, writing nothing', async () => {
    const before = (await api('/api/v1/notification-channels', { token: t.admin })).body.data.total;
    const { from: _from, ...noFrom } = emailChannel(1).settings;
    expectError(await channels({ name: 'x', kind: 'email', settings: noFrom }), 400, 40001);
    expectError(
      await channels({ name: 'x', kind: 'email', settings: { ...emailChannel(1).settings, from: 'nope' } }),
      400,
      40001,
    );
    expectError(
      await channels({ name: 'x', kind: 'email', settings: { ...emailChannel(1).settings, bogus: 1 } }),
      400,
      40003,
    );
    expectError(await channels({ name: 'x', kind: 'fax', settings: {} }), 400, 40001);
    expectError(await channels({ name: 'x', kind: 'slack', settings: {} }), 400, 40001);
    expectError(
      await channels({ name: 'x', kind: 'slack', settings: { url: 'ftp://hooks.example.test/x' } }),
      400,
      40001,
    );
    expectError(
      await channels({ name: 'x', kind: 'webhook', settings: { url: 'http://localhost:1/x', secret: 'short' } }),
      400,
      40001,
    );
    expectError(await channels({ name: 'x', kind: 'webhook', settings: { url: 'http://localhost:1/x' } }), 400, 40001);
    // Private addresses are refused unless allowed (the tests allow the name localhost only).
    const priv = await channels({
      name: 'x',
      kind: 'email',
      settings: { ...emailChannel(1).settings, host: '127.0.0.1' },
    });
    // Well formed, refused by the network rules: 422 CHANNEL_REFUSED naming the field.
    expectError(priv, 422, 42270);
    expect(priv.body.message).toMatch(/loopback, private/);
    expect(priv.body.data.fields).toEqual([expect.objectContaining({ path: 'settings.host' })]);
    expectError(
      await channels({ name: 'x', kind: 'webhook', settings: { url: 'http://10.1.2.3/x', secret: 'a'.repeat(16) } }),
      422,
      42270,
    );
    expectError(await channels(emailChannel(mailbox.port)), 409, 40903); // the name is taken
    expectError(await channels(emailChannel(1), t.alice), 403, 40300);
    expectError(
      await api(`/api/v1/notification-channels/${channelId}`, {
        method: 'PUT',
        token: t.admin,
        body: { name: 'x', kind: 'slack', settings: { url: 'https://hooks.example.test/x' } },
      }),
      422,
      42270,
    );
    expect((await api('/api/v1/notification-channels', { token: t.admin })).body.data.total).toBe(before);

    const setAddr = (userId: string, address: string) =>
      api(`/api/v1/notification-channels/${channelId}/addresses/${userId}`, {
        method: 'PUT',
        token: t.admin,
        body: { address },
      });
    expectError(await setAddr('bob', 'not an address'), 400, 40001);
    // A chat user id is a well-formed address, but not on an e-mail channel.
    expectError(await setAddr('bob', 'U012ABCDEF'), 422, 42270);
    expectError(await setAddr('nobody-here', 'x@corp.example.test'), 404, 40400);
    expectError(await api(`/api/v1/notification-channels/nope/addresses`, { token: t.admin }), 404, 40400);
    const ok = await setAddr('grace', 'grace@corp.example.test');
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ channelId, userId: 'grace', address: 'grace@corp.example.test' });
    expectError(await api('/api/v1/notification-deliveries?status=bogus', { token: t.admin }), 400, 40001);
    expectError(await api('/api/v1/notification-deliveries', { token: t.alice }), 403, 40300);
  });

  it('a tenant without channels sends nothing and errs nowhere', async () => {
    const { tenantId, adminToken } = await createTenant('quiet');
    await api('/api/v1/users', {
      token: adminToken,
      body: { id: 'u1', username: 'u1', password: 'pw-u1', email: 'u1@x.example.test' },
    });
    await deploy(adminToken, oneStep('quiet', users('u1')));
    await start(adminToken, 'quiet', {});
    const { rows } = await db.query(`select count(*)::int as n from notification_deliveries where tenant_id = $1`, [
      tenantId,
    ]);
    expect(rows[0].n).toBe(0);
    const { rows: outbox } = await db.query(`select count(*)::int as n from notifications where tenant_id = $1`, [
      tenantId,
    ]);
    expect(outbox[0].n).toBeGreaterThan(0);
  });
});
