// The channel messages without a server (docs/channels.md): every kind with a message renders in
// both languages, the e-mail's HTML escapes what users typed, and the chat signatures follow each
// platform's published recipe.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { taskPage } from '../../src/tasks/link-page.js';
import { PAGE_WORDS } from '../../src/tasks/link-page-words.js';
import { dingtalkSign, feishuSign } from '../../src/notifications/adapters/chat.js';
import { messageIdOf, threadIdOf } from '../../src/notifications/dispatcher.js';
import {
  CHANNEL_KINDS,
  defaultTemplate,
  LOCALES,
  TEMPLATE_FIELDS,
  type MessageContext,
} from '../../src/notifications/messages/index.js';
import { checkTemplate, renderMessage } from '../../src/notifications/templates/render.js';
import { NOTIFICATION_KINDS } from '../../workflows/notification-kinds.js';

const context = (kind: MessageContext['kind'], locale: MessageContext['locale'] = 'en'): MessageContext => ({
  kind,
  locale,
  recipient: { id: 'bob', name: 'Bob' },
  payload: {
    name: 'Approve',
    by: 'alice',
    to: 'carol',
    message: 'soon <b>please</b>',
    target: 'start',
    decision: 'approve',
  },
  instance: {
    id: 'i-1',
    processKey: 'leave',
    processName: 'Leave <request>',
    businessKey: 'LV-1',
    initiatorId: 'alice',
    initiatorName: 'Alice & Co',
    status: 'active',
  },
  task: {
    id: 't-1',
    name: 'Approve',
    kind: 'approval',
    status: 'active',
    assignee: 'bob',
    dueDate: new Date('2026-12-01T09:30:00Z'),
    createTime: new Date('2026-11-25T09:30:00Z'),
    reason: 'manager of alice (level 1)',
  },
  summary: [['Days', '3']],
  links: { approve: 'https://x.test/l/tok?action=approve', reject: 'https://x.test/l/tok?action=reject' },
  names: { alice: 'Alice & Co', carol: 'Carol' },
});

describe('channel messages', () => {
  it('has a message for every kind a channel sends, each a catalogued kind, in both languages', async () => {
    for (const kind of CHANNEL_KINDS) {
      expect(NOTIFICATION_KINDS).toContain(kind);
      for (const locale of LOCALES) {
        const m = (await renderMessage(context(kind, locale)))!;
        expect(m.subject, `${kind} ${locale}`).toMatch(/^\[Leave <request>\] LV-1 /);
        expect(m.title.length).toBeGreaterThan(0);
        expect(m.intro.length).toBeGreaterThan(0);
        expect(m.facts).toContainEqual(['Days', '3']);
      }
    }
    expect(await renderMessage(context('task_unavailable'))).toBeNull();
  });

  it('a task message names the process, initiator, due date and why this approver, and carries the decisions', async () => {
    const m = (await renderMessage(context('task_assigned')))!;
    expect(m.facts).toEqual([
      ['Process', 'Leave <request>'],
      ['Business key', 'LV-1'],
      ['Initiator', 'Alice & Co'],
      ['Task', 'Approve'],
      ['Due', 'Dec 1, 2026, 09:30 UTC'],
      ['Why you', 'manager of alice (level 1)'],
      ['Days', '3'],
    ]);
    expect(m.actions.map((a) => [a.label, a.style])).toEqual([
      ['Approve', 'primary'],
      ['Reject', 'danger'],
    ]);
    // Dates in the recipient's language and time zone.
    const east = (await renderMessage({ ...context('task_assigned', 'zh-CN'), timeZone: 'Asia/Shanghai' }))!;
    expect(east.facts).toContainEqual(['截止时间', '2026年12月1日 GMT+8 17:30']);
    expect((await renderMessage({ ...context('task_assigned'), links: null }))!.actions).toEqual([]);
    expect((await renderMessage(context('task_assigned', 'zh-CN')))!.actions.map((a) => a.label)).toEqual([
      '同意',
      '驳回',
    ]);
    expect((await renderMessage(context('cc')))!.actions).toEqual([]);
  });

  it('the default templates are Liquid that passes the check a tenant template must pass', async () => {
    for (const kind of CHANNEL_KINDS)
      for (const locale of LOCALES) {
        const parts = defaultTemplate(kind, locale)!;
        expect(Object.keys(parts).sort()).toEqual([...TEMPLATE_FIELDS].sort());
        expect(await checkTemplate(kind, locale, parts), `${kind} ${locale}`).toEqual([]);
      }
  });

  it('the instance-ended message names the outcome and the last comment', async () => {
    const ctx = (outcome: string, locale: MessageContext['locale'] = 'en') => ({
      ...context('instance_ended', locale),
      task: null,
      links: null,
      payload: { outcome, by: 'carol', comment: 'Not this month', commentBy: 'carol' },
    });
    const rejected = (await renderMessage(ctx('rejected')))!;
    expect(rejected.subject).toBe('[Leave <request>] LV-1 Your request was rejected');
    expect(rejected.intro).toBe('Your request was rejected by Carol.');
    expect(rejected.facts[0]).toEqual(['Comment', 'Not this month (Carol)']);
    expect((await renderMessage(ctx('approved')))!.title).toBe('Your request was approved');
    expect((await renderMessage(ctx('terminated', 'zh-CN')))!.title).toBe('您的申请已终止');
    expect((await renderMessage(ctx('rejected', 'zh-CN')))!.facts[0]).toEqual(['意见', 'Not this month (Carol)']);
  });

  it('refuses a broken template with the part and the line, and uses a tenant part over the default', async () => {
    const bad = (parts: Record<string, string>) => checkTemplate('task_assigned', 'en', parts);
    expect(await bad({ intro: 'Hello\n{{ task.name | shout }}' })).toEqual([
      { field: 'intro', line: 2, column: 1, message: 'undefined filter: shout' },
    ]);
    expect((await bad({ html: '<p>\n\n{% if task %}open' }))[0]).toMatchObject({ field: 'html', line: 3 });
    expect((await bad({ title: 'x {{ secret }}' }))[0]).toMatchObject({
      field: 'title',
      line: 1,
      message: 'unknown variable secret',
    });
    expect((await bad({ title: '{{ task.nmae }}' }))[0]).toMatchObject({ message: 'unknown variable task.nmae' });
    expect((await bad({ title: '{% include "/etc/passwd" %}' }))[0].message).toMatch(/include tag is not available/);
    expect((await bad({ actions: 'Go | javascript:alert(1)' }))[0]).toMatchObject({ field: 'actions' });
    expect(await bad({ title: 'Decide {{ task.name | upcase }}', text: '{{ message.subject }}' })).toEqual([]);
    const m = (await renderMessage(context('task_assigned'), {
      override: { title: 'Decide {{ task.name | upcase }}' },
    }))!;
    expect(m.subject).toBe('[Leave <request>] LV-1 Decide APPROVE');
    expect(m.html).toContain('>Decide APPROVE</h1>');
    expect(m.intro).toBe('Alice & Co asks for your decision.');
  });

  it('the e-mail escapes what users typed in its HTML and keeps it plain in its text', async () => {
    const m = (await renderMessage(context('urge')))!;
    const html = m.html;
    expect(html).toContain('soon &lt;b&gt;please&lt;/b&gt;');
    expect(html).toContain('Alice &amp; Co');
    expect(html).not.toContain('<b>please</b>');
    expect(html).toContain('href="https://x.test/l/tok?action=approve"');
    const text = m.text;
    expect(text).toContain('Message: soon <b>please</b>');
    expect(text).toContain('Approve: https://x.test/l/tok?action=approve');
  });

  it('signs Feishu and DingTalk requests by their recipes', () => {
    const ts = '1700000000';
    expect(feishuSign('s3cret', ts)).toBe(createHmac('sha256', `${ts}\ns3cret`).update('').digest('base64'));
    expect(dingtalkSign('SECabc', '1700000000000')).toBe(
      createHmac('sha256', 'SECabc').update('1700000000000\nSECabc').digest('base64'),
    );
  });

  it('gives each delivery one Message-ID and each instance one thread', () => {
    expect(messageIdOf('42', 'c-1', 'example.com')).toBe('<n42.c-1@example.com>');
    expect(threadIdOf('i-1', 'example.com')).toBe('<instance.i-1@example.com>');
  });

  it('the link page shows the task without running anything it holds', () => {
    const view: any = {
      linkId: 'l',
      userId: 'bob',
      actions: ['approve', 'reject'],
      expiresAt: '2026-11-28T10:00:00.000Z',
      task: {
        id: 't',
        name: 'Check <b>',
        activityId: 'a',
        status: 'active',
        createTime: '2026-11-25T10:00:00.000Z',
        dueDate: null,
      },
      instance: {
        id: 'i',
        processKey: 'p',
        processName: 'Leave',
        businessKey: 'LV-7',
        initiatorId: 'alice',
        startTime: '',
      },
      variables: { reason: '<script>alert(1)</script>' },
    };
    const both = taskPage(PAGE_WORDS.en, view, null);
    expect(both).not.toContain('<script>');
    expect(both).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(both).toContain('Check &lt;b&gt;');
    expect(both.match(/<form method="post">/g)).toHaveLength(2);
    const reject = taskPage(PAGE_WORDS.en, view, 'reject', {
      action: 'reject',
      text: 'Give a reason for rejecting.',
      comment: 'x',
    });
    expect(reject.match(/<form method="post">/g)).toHaveLength(1);
    expect(reject).toContain('name="comment" maxlength="2000" required>x</textarea>');
    const zh = taskPage(PAGE_WORDS['zh-CN'], view, 'approve');
    expect(zh).toContain('<html lang="zh-CN">');
    expect(zh).toContain('>同意</button>');
  });
});
