// How the language of an answer is chosen (docs/http.md "Languages"): the user's locale, else the
// request's Accept-Language, else the tenant's default (GET/PUT /tenant-settings), else English —
// and what changes is only words. The engine's trail entries carry codes and params (dsl/history.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRequire } from 'node:module';
import { endingBackfill } from '../../src/db/migrations/Migration20261125000600EndingCodes.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';
import { api, createDemoLikeTenant, expectError, login } from '../helpers/api.js';
import { deploy, example, instance, myTask, actOk, oneStep, start, eventually } from '../helpers/flow.js';
import { linear, steps, users } from '../helpers/dsl.js';

const D = '/api/v1/workflow/process-definitions';
const SETTINGS = '/api/v1/tenant-settings';

let tenantId: string;
let t: Record<string, string>;

beforeAll(async () => {
  const demo = await createDemoLikeTenant('lang');
  tenantId = demo.tenantId;
  t = demo.tokens;
});

const han = /[\u4e00-\u9fff]/;
/** A refusal every caller gets: an instance that does not exist (404 NOT_FOUND). */
const refusal = (token?: string, acceptLanguage?: string) =>
  api('/api/v1/workflow/process-instances/no-such-instance', {
    token,
    headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {},
  });

describe('GET/PUT /tenant-settings', () => {
  it('answers the default language, an admin changes it, /auth/me tells the console; bad input is 400, others 403', async () => {
    expect((await api(SETTINGS, { token: t.alice })).body).toEqual({
      code: 0,
      data: { defaultLocale: null, attachmentLimits: null },
      message: 'ok',
    });
    const put = (body: unknown, token = t.admin) => api(SETTINGS, { method: 'PUT', token, body });
    expectError(await put({ defaultLocale: 'fr' }), 400, 40001);
    expectError(await put({}), 400, 40001);
    expectError(await put({ defaultLocale: 'zh-CN', theme: 'dark' }), 400, 40003);
    expectError(await put({ defaultLocale: 'zh-CN' }, t.alice), 403, 40300);
    expect((await api(SETTINGS, { token: t.alice })).body.data).toEqual({
      defaultLocale: null,
      attachmentLimits: null,
    });

    const done = await put({ defaultLocale: 'zh-CN' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toEqual({ defaultLocale: 'zh-CN', attachmentLimits: null });
    expect((await api(SETTINGS, { token: t.alice })).body.data).toEqual({
      defaultLocale: 'zh-CN',
      attachmentLimits: null,
    });
    const me = (await api('/api/v1/auth/me', { token: t.alice })).body.data;
    expect(me.tenant).toEqual({ id: tenantId, name: `Tenant ${tenantId}`, defaultLocale: 'zh-CN' });
  });
});

describe('the choice order: user locale, then Accept-Language, then the tenant default', () => {
  let zhUser: string;
  let enUser: string;

  beforeAll(async () => {
    for (const [id, locale] of [
      ['lin', 'zh-CN'],
      ['emma', 'en'],
    ] as const) {
      const r = await api('/api/v1/users', {
        token: t.admin,
        body: { id, username: id, password: `pw-${id}`, roles: ['employee'], locale },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    zhUser = await login('lin', 'pw-lin', tenantId);
    enUser = await login('emma', 'pw-emma', tenantId);
    const set = await api(SETTINGS, { method: 'PUT', token: t.admin, body: { defaultLocale: 'zh-CN' } });
    expect(set.status).toBe(200);
  });

  it('the same refusal, the same code, the words of the chosen language', async () => {
    const cases: Array<[who: string, token: string | undefined, header: string | undefined, zh: boolean]> = [
      // No locale of their own: the header decides, else the tenant's default (zh-CN).
      ['alice, no header → tenant default', t.alice, undefined, true],
      ['alice, fr → tenant default', t.alice, 'fr-FR', true],
      ['alice, en → header', t.alice, 'en-US,en;q=0.9', false],
      ['alice, zh → header', t.alice, 'zh-CN', true],
      // Their own locale beats the header and the tenant.
      ['emma (en), zh header → user', enUser, 'zh-CN,zh;q=0.9', false],
      ['emma (en), no header → user', enUser, undefined, false],
      ['lin (zh-CN), en header → user', zhUser, 'en', true],
      // Before anyone is known (no token): the header, else English.
      ['nobody, zh', undefined, 'zh', true],
      ['nobody, no header', undefined, undefined, false],
    ];
    for (const [who, token, header, zh] of cases) {
      const res = await refusal(token, header);
      expect(res.status, who).toBe(token ? 404 : 401);
      expect(res.body.code, who).toBe(token ? 40400 : 40100);
      expect(han.test(res.body.message), `${who}: ${res.body.message}`).toBe(zh);
      expect(res.headers.get('content-language'), who).toBe(zh ? 'zh-CN' : 'en');
    }
  });

  it('a change of the tenant default reaches the next request (the principal cache is cleared by the write)', async () => {
    expect(han.test((await refusal(t.alice)).body.message)).toBe(true);
    const set = await api(SETTINGS, { method: 'PUT', token: t.admin, body: { defaultLocale: null } });
    expect(set.body.data).toEqual({ defaultLocale: null, attachmentLimits: null });
    expect(han.test((await refusal(t.alice)).body.message)).toBe(false);
    await api(SETTINGS, { method: 'PUT', token: t.admin, body: { defaultLocale: 'zh-CN' } });
  });
});

describe('2xx answers carry their sentences in the caller language', () => {
  const zh = { 'Accept-Language': 'zh-CN' };
  const en = { 'Accept-Language': 'en' };

  it('validate: the same problems (code, params, node, field), messages in Chinese', async () => {
    const doc = linear('lang_bad', steps({ approver: { type: 'role' } })) as any;
    doc.metadata.nodes.push({ id: 'odd', type: 'aiAgent', name: 'Odd' });
    const inEnglish = await api(`${D}/validate`, { token: t.admin, headers: en, body: { dsl: doc } });
    const inChinese = await api(`${D}/validate`, { token: t.admin, headers: zh, body: { dsl: doc } });
    expect(inChinese.status).toBe(200);
    expect(inChinese.body.data.valid).toBe(false);
    const strip = (ps: any[]) => ps.map(({ message: _m, ...rest }) => rest);
    expect(strip(inChinese.body.data.problems)).toEqual(strip(inEnglish.body.data.problems));
    expect(inChinese.body.data.problems.length).toBeGreaterThanOrEqual(2);
    for (const p of inChinese.body.data.problems) expect(p.message, p.code).toMatch(han);
    for (const p of inEnglish.body.data.problems) expect(p.message, p.code).not.toMatch(han);
  });

  it("simulate: each approver's reason in Chinese, its kind and fields unchanged", async () => {
    const id = (await deploy(t.admin, example('expense-claim.json'))).id;
    const body = { definitionId: id, initiatorId: 'alice', variables: { amount: 4200 } };
    const inEnglish = (await api(`${D}/simulate`, { token: t.admin, headers: en, body })).body.data;
    const res = await api(`${D}/simulate`, { token: t.admin, headers: zh, body });
    expect(res.status).toBe(200);
    const reasons = (data: any) =>
      data.steps.flatMap((s: any) => [
        ...(s.assignment?.reason ? [s.assignment.reason] : []),
        ...(s.assignment?.approvers ?? []).map((a: any) => a.reason),
      ]);
    const zhReasons = reasons(res.body.data);
    const enReasons = reasons(inEnglish);
    expect(zhReasons.length).toBeGreaterThan(0);
    expect(zhReasons.map(({ text: _t, ...r }: any) => r)).toEqual(enReasons.map(({ text: _t, ...r }: any) => r));
    const manager = zhReasons.find((r: any) => r.kind === 'manager');
    expect(manager.text).toBe('alice 的主管（第 1 级）');
    expect(enReasons.find((r: any) => r.kind === 'manager').text).toBe('manager of alice (level 1)');
    for (const r of zhReasons) expect(r.text, r.kind).toMatch(han);
  });

  it("a task's assignment reason, in the list and alone", async () => {
    await deploy(t.admin, linear('lang_task', steps({ approver: { type: 'manager', levels: 1 } })));
    const id = await start(t.alice, 'lang_task');
    const task = await myTask(t.bob, id);
    const one = await api(`/api/v1/workflow/tasks/${task.id}`, { token: t.bob, headers: zh });
    expect(one.body.data.assignmentReason).toMatchObject({
      kind: 'manager',
      ids: ['alice'],
      text: 'alice 的主管（第 1 级）',
    });
    const list = await api(`/api/v1/workflow/tasks?instanceId=${id}`, { token: t.bob, headers: zh });
    expect(list.body.data.items[0].assignmentReason.text).toBe('alice 的主管（第 1 级）');
    const english = await api(`/api/v1/workflow/tasks/${task.id}`, { token: t.bob, headers: en });
    expect(english.body.data.assignmentReason.text).toBe('manager of alice (level 1)');
  });
});

describe("an instance's end reason: a code and params, worded in the caller language", () => {
  const zh = { 'Accept-Language': 'zh-CN' };
  const en = { 'Accept-Language': 'en' };
  const get = (path: string, headers: Record<string, string>, token = t.alice) => api(path, { token, headers });
  const I = '/api/v1/workflow/process-instances';

  it('a rejection: endCode and endParams the same in every language, endReason in Chinese for zh-CN, the recorded English for en', async () => {
    await deploy(t.admin, oneStep('lang_end', users('bob')));
    const id = await start(t.alice, 'lang_end', {}, `END-${Date.now()}`);
    const res = await actOk(t.bob, (await myTask(t.bob, id)).id, 'reject', { comment: '预算不足' });
    expect(res.instance.status).toBe('rejected');
    const code = {
      endCode: 'end.rejected',
      endParams: { nodeId: 'approve', nodeName: 'Approve', comment: '预算不足' },
    };

    const inChinese = await get(`${I}/${id}`, zh);
    expect(inChinese.status).toBe(200);
    expect(inChinese.body.data).toMatchObject({
      ...code,
      status: 'rejected',
      endReason: '在“Approve”被驳回：预算不足',
    });
    const inEnglish = await get(`${I}/${id}`, en);
    expect(inEnglish.body.data).toMatchObject({ ...code, endReason: 'Rejected at Approve: 预算不足' });

    // The same in the approval detail and in the lists.
    expect((await get(`${I}/${id}/detail`, zh)).body.data.instance).toMatchObject({
      ...code,
      endReason: '在“Approve”被驳回：预算不足',
    });
    const mine = (await get(`${I}/applications?pageSize=200`, zh)).body.data.items.find((i: any) => i.id === id);
    expect(mine).toMatchObject({ ...code, endReason: '在“Approve”被驳回：预算不足' });
    const all = (await get(`${I}?pageSize=200`, en, t.admin)).body.data.items.find((i: any) => i.id === id);
    expect(all).toMatchObject({ ...code, endReason: 'Rejected at Approve: 预算不足' });
    // No header: alice has no locale of her own, the tenant's default (zh-CN) decides.
    expect((await api(`${I}/${id}`, { token: t.alice })).body.data.endReason).toBe('在“Approve”被驳回：预算不足');
  });

  it("an administrator's termination with a reason, and a withdrawal", async () => {
    await deploy(t.admin, oneStep('lang_end_admin', users('bob')));
    const terminated = await start(t.alice, 'lang_end_admin', {}, `END-T-${Date.now()}`);
    const stop = await api(`${I}/${terminated}/terminate`, { token: t.admin, body: { reason: '重复提交' } });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    const one = await eventually(
      () => get(`${I}/${terminated}`, zh).then((r) => r.body.data),
      (i) => i.status === 'terminated',
    );
    expect(one).toMatchObject({
      endCode: 'end.terminated',
      endParams: { reason: '重复提交' },
      endReason: '管理员已终止：重复提交',
    });
    expect((await get(`${I}/${terminated}`, en)).body.data.endReason).toBe('Terminated by an administrator: 重复提交');

    const withdrawn = await start(t.alice, 'lang_end_admin', {}, `END-W-${Date.now()}`);
    expect((await api(`${I}/${withdrawn}/withdraw`, { token: t.alice, body: {} })).status).toBe(200);
    const two = await eventually(
      () => get(`${I}/${withdrawn}`, zh).then((r) => r.body.data),
      (i) => i.status === 'terminated',
    );
    expect(two).toMatchObject({ endCode: 'end.withdrawn', endParams: {}, endReason: '申请人已撤回' });
    expect((await get(`${I}/${withdrawn}`, en)).body.data.endReason).toBe('Withdrawn by applicant');
  });
});

describe('instances that ended before ending codes', () => {
  const I = '/api/v1/workflow/process-instances';
  const get = (path: string, lang: string) => api(path, { token: t.alice, headers: { 'Accept-Language': lang } });

  it('get the code their words say exactly (the migration); the others keep their English words in every language', async () => {
    await deploy(t.admin, oneStep('lang_old_end', users('bob')));
    const defId = (await api(`${D}/key/lang_old_end`, { token: t.admin })).body.data.id;
    const rows: Array<[words: string, code: string | null, params: unknown, zh: string]> = [
      ['Withdrawn by applicant', 'end.withdrawn', {}, '申请人已撤回'],
      ['Terminated by an administrator', 'end.terminated', { reason: null }, '管理员已终止'],
      [
        'Completed by an administrator: paid twice',
        'end.completed',
        { reason: 'paid twice' },
        '管理员已直接办结：paid twice',
      ],
      ['Rejected at Approve: no budget', null, null, 'Rejected at Approve: no budget'],
    ];
    const { Client } = createRequire(import.meta.url)('pg');
    const db = new Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    const ids: string[] = [];
    try {
      for (const [i, [words]] of rows.entries()) {
        const id = `old-end-${Date.now()}-${i}`;
        await db.query(
          `insert into instances_archive (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name,
             status, initiator_id, variables, start_time, end_time, end_reason)
           values ($1, $2, $3, $4, 'lang_old_end', 1, 'Process lang_old_end', 'terminated', 'alice', '{}', now(), now(), $5)`,
          [id, tenantId, `approval-${tenantId}-${id}`, defId, words],
        );
        ids.push(id);
      }
      for (const sql of endingBackfill('instances_archive')) await db.query(sql);
    } finally {
      await db.end();
    }
    for (const [i, [words, code, params, zh]] of rows.entries()) {
      const inChinese = await get(`${I}/${ids[i]}`, 'zh-CN');
      expect(inChinese.status, JSON.stringify(inChinese.body)).toBe(200);
      expect(inChinese.body.data, words).toMatchObject({ endCode: code, endParams: params, endReason: zh });
      expect((await get(`${I}/${ids[i]}`, 'en')).body.data.endReason).toBe(words);
    }
  });
});

describe('codes in history', () => {
  it('an automatic approval and a return carry a code and params beside the English comment', async () => {
    await deploy(t.admin, oneStep('lang_self', { ...users('alice'), selfApproval: 'autoApprove' }));
    const selfId = await start(t.alice, 'lang_self');
    const done = await eventually(
      () => instance(t.alice, selfId),
      (i) => i.status === 'completed',
    );
    const auto = done.trail.find((e: any) => e.type === 'auto_approve');
    expect(auto).toMatchObject({
      code: 'autoApprove.selfApproval',
      params: {},
      comment: 'Approved automatically: the approver is the initiator (selfApproval autoApprove)',
    });
    // What people did carries no code.
    expect(done.trail.filter((e: any) => e.type !== 'auto_approve').every((e: any) => e.code === null)).toBe(true);

    await deploy(
      t.admin,
      linear('lang_back', steps(users('bob'), { ...users('carol'), reject: { strategy: 'toPrev' } })),
    );
    const backId = await start(t.alice, 'lang_back');
    await actOk(t.bob, (await myTask(t.bob, backId)).id, 'approve', { comment: '同意' });
    await actOk(t.carol, (await myTask(t.carol, backId)).id, 'reject', { comment: '预算不足' });
    const back = (await instance(t.alice, backId)).trail.find((e: any) => e.code === 'reject.backTo');
    expect(back).toMatchObject({
      type: 'system',
      activityId: 'n2',
      params: { target: 'n1', strategy: 'toPrev' },
      comment: 'Rejected: back to n1 (toPrev)',
    });
    const reject = (await instance(t.alice, backId)).trail.find((e: any) => e.type === 'reject');
    expect(reject).toMatchObject({ comment: '预算不足', code: null, params: null });
  });
});

describe('messages we send: the recipient locale, else the channel locale, else the tenant default', () => {
  let receiver: Receiver;
  const received: Array<{ path: string; body: any }> = [];

  afterAll(async () => {
    await receiver?.close();
  });

  it('a Slack message of a new task is worded for its recipient', async () => {
    receiver = await startReceiver((req, raw, res) => {
      received.push({ path: new URL(req.url ?? '/', 'http://x').pathname, body: JSON.parse(raw || 'null') });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    const url = (p: string) => `http://localhost:${receiver.port}${p}`;
    const { tokens } = await createDemoLikeTenant('msg');
    const admin = tokens.admin;
    expect((await api(SETTINGS, { method: 'PUT', token: admin, body: { defaultLocale: 'zh-CN' } })).status).toBe(200);
    const erin = await api('/api/v1/users/erin', { method: 'PATCH', token: admin, body: { locale: 'en' } });
    expect(erin.status, JSON.stringify(erin.body)).toBe(200);
    const channel = async (name: string, settings: Record<string, unknown>) => {
      const res = await api('/api/v1/notification-channels', { token: admin, body: { name, kind: 'slack', settings } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      for (const user of ['bob', 'erin']) {
        const a = await api(`/api/v1/notification-channels/${res.body.data.id}/addresses/${user}`, {
          method: 'PUT',
          token: admin,
          body: { address: `${user}-${name}` },
        });
        expect(a.status, JSON.stringify(a.body)).toBe(200);
      }
    };
    await channel('plain', { url: url('/plain') });
    await channel('english', { url: url('/english'), locale: 'en' });
    await deploy(admin, oneStep('msg_bob', users('bob')));
    await deploy(admin, oneStep('msg_erin', users('erin')));
    await start(tokens.alice, 'msg_bob', {}, 'M-BOB');
    await start(tokens.alice, 'msg_erin', {}, 'M-ERIN');

    const header = (path: string, businessKey: string) =>
      eventually(
        async () => received.filter((r) => r.path === path && JSON.stringify(r.body).includes(businessKey)),
        (r) => r.length > 0,
      ).then((r) => r[0].body.blocks[0].text.text as string);
    // bob has no locale: the channel's when it has one, else the tenant's default.
    expect(await header('/plain', 'M-BOB')).toMatch(han);
    expect(await header('/english', 'M-BOB')).toBe('Approval needed: Approve');
    // erin's own locale (en) beats the tenant's default on the channel without one.
    expect(await header('/plain', 'M-ERIN')).toBe('Approval needed: Approve');
  });
});
