// Tenant message templates (docs/channels.md#templates) against the real stack: listing defaults and
// overrides, a broken template refused with its part and line (nothing stored), a preview for a real
// task, the override used at send time in the recipient's language (a real SMTP server in this
// process), back to the default; and the instance-ended message reaching the initiator over SMTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant, expectError } from '../helpers/api.js';
import { actOk, deploy, myTask, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';
import { startMailbox, to, type Mailbox } from '../helpers/smtp-receiver.js';

const FROM = 'Approvals <approvals@tpl.example.test>';
const BASE = '/api/v1/notification-templates';

describe('message templates', () => {
  let t: Record<string, string>;
  let mailbox: Mailbox;

  const patchUser = async (id: string, body: unknown) => {
    const res = await api(`/api/v1/users/${id}`, { method: 'PATCH', token: t.admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const put = (path: string, body: unknown, token = t.admin) => api(`${BASE}/${path}`, { method: 'PUT', token, body });

  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('tpl'));
    mailbox = await startMailbox();
    await deploy(
      t.admin,
      oneStep('tpl_leave', users('bob'), {
        processInfo: { formType: 'design', form: { fields: [{ name: 'days', label: 'Days', type: 'number' }] } },
      }),
    );
    await patchUser('bob', { email: 'bob@corp.tpl.test', locale: 'zh-CN' });
    await patchUser('alice', { email: 'alice@corp.tpl.test' });
    const res = await api('/api/v1/notification-channels', {
      token: t.admin,
      body: {
        name: 'mail',
        kind: 'email',
        settings: { host: 'localhost', port: mailbox.port, tls: 'none', from: FROM },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.kinds).toContain('instance_ended');
  });

  afterAll(async () => {
    await mailbox?.close();
  });

  it('lists every kind with a message in both languages, each starting from the default', async () => {
    const all = await api(`${BASE}?pageSize=100`, { token: t.admin });
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(20);
    const assigned = all.body.data.items.find((i: any) => i.kind === 'task_assigned' && i.locale === 'zh-CN');
    expect(assigned).toMatchObject({ overridden: [], updatedAt: null, updatedBy: null });
    expect(assigned.parts).toEqual(assigned.defaults);
    expect(assigned.parts.title).toContain('待审批：');
    expect(Object.keys(assigned.parts).sort()).toEqual([
      'actions',
      'facts',
      'html',
      'intro',
      'subject',
      'text',
      'title',
    ]);
    const ended = await api(`${BASE}?kind=instance_ended`, { token: t.admin });
    expect(ended.body.data.items.map((i: any) => i.locale)).toEqual(['en', 'zh-CN']);
    // Only admins; unknown kinds and languages are not there.
    expectError(await api(BASE, { token: t.bob }), 403, 40300);
    expectError(await api(`${BASE}/task_unavailable/en`, { token: t.admin }), 404, 40400);
    expectError(await api(`${BASE}/task_assigned/fr`, { token: t.admin }), 404, 40400);
  });

  it('refuses a broken template with its part and line, and stores nothing', async () => {
    const filter = await put('task_assigned/en', {
      title: 'ok',
      html: '<p>\n{{ task.name }}\n{{ task.name | shout }}</p>',
    });
    expectError(filter, 422, 42260);
    expect(filter.body.message).toBe('html, line 3, column 1: undefined filter: shout');
    expect(filter.body.data.problems).toEqual([
      { field: 'html', line: 3, column: 1, message: 'undefined filter: shout' },
    ]);
    const unclosed = await put('task_assigned/en', { intro: 'Hello\n\n{% if task %}open' });
    expectError(unclosed, 422, 42260);
    expect(unclosed.body.message).toMatch(/^intro, line 3, column 1: tag \{% if task %\} not closed/);
    const unknown = await put('task_assigned/en', { subject: '{{ title }} {{ instance.secret }}' });
    expectError(unknown, 422, 42260);
    expect(unknown.body.message).toMatch(/^subject, line 1, column \d+: unknown variable instance\.secret/);
    const file = await put('task_assigned/en', { text: '{% include "/etc/passwd" %}' });
    expectError(file, 422, 42260);
    expectError(await put('task_assigned/en', { titel: 'x' }), 400, 40003);
    expectError(await put('task_assigned/en', { title: 'x' }, t.bob), 403, 40300);
    const after = await api(`${BASE}/task_assigned/en`, { token: t.admin });
    expect(after.body.data.overridden).toEqual([]);
  });

  it('uses the override at send time in the recipient’s language; previews it for a real task; deletes back to the default', async () => {
    const zh = await put('task_assigned/zh-CN', {
      title: '请审批 {{ task.name }}（{{ recipient.name }}）',
      intro: '{{ instance.initiator }} 等您决定，共 {{ summary.first.value }} 天。',
    });
    expect(zh.status, JSON.stringify(zh.body)).toBe(200);
    expect(zh.body.data).toMatchObject({ overridden: ['title', 'intro'], updatedBy: 'admin' });
    const en = await put('task_assigned/en', { title: 'Please decide: {{ task.name | upcase }}' });
    expect(en.status, JSON.stringify(en.body)).toBe(200);

    // bob reads Chinese: the zh-CN override, in the subject, the text and the HTML.
    const first = await start(t.alice, 'tpl_leave', { days: 4 }, 'TPL-1');
    const [zhMail] = await mailbox.waitFor((all) =>
      to('bob@corp.tpl.test')(all).filter((m) => m.text?.includes('TPL-1')),
    );
    expect(zhMail.subject).toBe('[Process tpl_leave] TPL-1 请审批 Approve（bob）');
    expect(zhMail.text).toContain('alice 等您决定，共 4 天。');
    expect(zhMail.html).toContain('<h1 style="margin:0 0 8px;font-size:18px;color:#1f2328">请审批 Approve（bob）</h1>');
    expect(zhMail.text).toContain('同意: http://'); // the shared parts are still the default's

    // The preview renders the stored template for that task, with placeholder links (none minted).
    const task = await myTask(t.bob, first);
    const preview = await api(`${BASE}/task_assigned/zh-CN/preview`, { token: t.admin, body: { taskId: task.id } });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({
      kind: 'task_assigned',
      locale: 'zh-CN',
      recipient: { id: 'bob' },
      instanceId: first,
      taskId: task.id,
    });
    expect(preview.body.data.message.subject).toBe('[Process tpl_leave] TPL-1 请审批 Approve（bob）');
    expect(preview.body.data.message.facts).toContainEqual({ label: 'Days', value: '4' });
    expect(preview.body.data.message.actions.map((a: any) => a.url)).toEqual([
      expect.stringMatching(/\/l\/preview\?action=approve$/),
      expect.stringMatching(/\/l\/preview\?action=reject$/),
    ]);
    // Parts given in the body are tried without being stored; a broken one is refused like a save.
    const tried = await api(`${BASE}/task_assigned/en/preview`, {
      token: t.admin,
      body: { instanceId: first, parts: { intro: 'Days: {{ summary.first.value }}' } },
    });
    expect(tried.status, JSON.stringify(tried.body)).toBe(200);
    expect(tried.body.data.message).toMatchObject({ title: 'Please decide: APPROVE', intro: 'Days: 4' });
    expect(tried.body.data.message.html).toContain('Please decide: APPROVE');
    expectError(
      await api(`${BASE}/task_assigned/en/preview`, { token: t.admin, body: { parts: { intro: '{{ x | nope }}' } } }),
      422,
      42260,
    );
    const sample = await api(`${BASE}/instance_ended/zh-CN/preview`, { token: t.admin, body: {} });
    expect(sample.body.data.message.title).toBe('您的申请已通过');
    expectError(
      await api(`${BASE}/task_assigned/en/preview`, { token: t.admin, body: { taskId: 'no-such-task' } }),
      404,
      40410,
    );
    expectError(
      await api(`${BASE}/task_assigned/en/preview`, { token: t.admin, body: { instanceId: 'no-such-instance' } }),
      404,
      40410,
    );

    // bob reads English now: the en override.
    await patchUser('bob', { locale: 'en' });
    await start(t.alice, 'tpl_leave', { days: 2 }, 'TPL-2');
    const [enMail] = await mailbox.waitFor((all) =>
      to('bob@corp.tpl.test')(all).filter((m) => m.text?.includes('TPL-2')),
    );
    expect(enMail.subject).toBe('[Process tpl_leave] TPL-2 Please decide: APPROVE');
    expect(enMail.text).toContain('alice asks for your decision.');

    // Deleting the override goes back to the default; a second delete finds nothing.
    const del = await api(`${BASE}/task_assigned/en`, { method: 'DELETE', token: t.admin });
    expect(del.body.data).toEqual({ deleted: true });
    expectError(await api(`${BASE}/task_assigned/en`, { method: 'DELETE', token: t.admin }), 404, 40400);
    await start(t.alice, 'tpl_leave', { days: 1 }, 'TPL-3');
    const [plain] = await mailbox.waitFor((all) =>
      to('bob@corp.tpl.test')(all).filter((m) => m.text?.includes('TPL-3')),
    );
    expect(plain.subject).toBe('[Process tpl_leave] TPL-3 Approval needed: Approve');
  });

  it('tells the initiator how the request ended, with the last comment, over SMTP', async () => {
    await patchUser('bob', { locale: 'en' });
    const rejected = await start(t.alice, 'tpl_leave', { days: 9 }, 'TPL-END-1');
    await actOk(t.bob, (await myTask(t.bob, rejected)).id, 'reject', { comment: 'Not in December' });
    const [mail] = await mailbox.waitFor((all) =>
      to('alice@corp.tpl.test')(all).filter((m) => m.text?.includes('TPL-END-1')),
    );
    expect(mail.subject).toBe('[Process tpl_leave] TPL-END-1 Your request was rejected');
    expect(mail.text).toContain('Your request was rejected by bob.');
    expect(mail.text).toContain('Comment: Not in December (bob)');
    expect(mail.inReplyTo).toBe(`<instance.${rejected}@tpl.example.test>`);

    await patchUser('alice', { locale: 'zh-CN' });
    const approved = await start(t.alice, 'tpl_leave', { days: 1 }, 'TPL-END-2');
    await actOk(t.bob, (await myTask(t.bob, approved)).id, 'approve', { comment: 'Enjoy' });
    const [zh] = await mailbox.waitFor((all) =>
      to('alice@corp.tpl.test')(all).filter((m) => m.text?.includes('TPL-END-2')),
    );
    expect(zh.subject).toBe('[Process tpl_leave] TPL-END-2 您的申请已通过');
    expect(zh.text).toContain('意见: Enjoy (bob)');

    // A withdrawal tells nobody it "ended": the initiator did it.
    const withdrawn = await start(t.alice, 'tpl_leave', { days: 1 }, 'TPL-END-3');
    const w = await api(`/api/v1/workflow/process-instances/${withdrawn}/withdraw`, { token: t.alice, body: {} });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    // The console's list has the kind for the initiator, with codes, not words.
    const mine = await api('/api/v1/notifications?kind=instance_ended&pageSize=50', { token: t.alice });
    const byInstance = Object.fromEntries(mine.body.data.items.map((n: any) => [n.instanceId, n.payload]));
    expect(byInstance[rejected]).toMatchObject({ outcome: 'rejected', comment: 'Not in December', commentBy: 'bob' });
    expect(byInstance[approved]).toMatchObject({ outcome: 'approved', comment: 'Enjoy' });
    expect(byInstance[withdrawn]).toBeUndefined();
  });
});
