// One-time approval links over real HTTP (docs/task-actions.md#one-time-approval-links): mint,
// view and decide without a login, single use (also under concurrency), expiry, revocation,
// tampering, invalidation when the task closes, the trail's channel and the rate limit.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SignJWT } from 'jose';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { actOk, deploy, instance, myTask, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';

describe('one-time approval links', () => {
  let t: Record<string, string>;

  const mint = (taskId: string, token: string, body: unknown = {}) =>
    api(`/api/v1/workflow/tasks/${taskId}/links`, { token, body });
  const view = (link: string) => api(`/api/v1/approve-links/${link}`);
  const decide = (link: string, body: unknown) => api(`/api/v1/approve-links/${link}`, { body });
  const refused = (res: { status: number; body: any }, status: number, code: number, reason?: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    if (reason) expect(res.body.data).toEqual({ reason });
  };
  /** A fresh instance whose one task is bob's, and a link bob minted for it. */
  const bobsTask = async (body: unknown = {}) => {
    const instanceId = await start(t.alice, 'al_single', { amount: 5, secret: 'hidden' });
    const task = await myTask(t.bob, instanceId);
    const res = await mint(task.id, t.bob, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { instanceId, task, link: res.body.data };
  };

  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('al'));
    await deploy(t.admin, oneStep('al_single', users('bob'), { nodeInfo: { formPermissions: { secret: 'h' } } }));
    await deploy(t.admin, oneStep('al_pool', { approver: { type: 'role', roleIds: ['finance'] } }));
  });

  it('the assignee mints a link, anyone with it sees the task, and it approves once as the assignee', async () => {
    const { instanceId, task, link } = await bobsTask();
    expect(link).toMatchObject({
      taskId: task.id,
      instanceId,
      userId: 'bob',
      actions: ['approve', 'reject'],
      via: 'email',
      createdBy: 'bob',
      usedAt: null,
      revokedAt: null,
      closedAt: null,
    });
    expect(link.path).toBe(`/api/v1/approve-links/${link.token}`);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(2 * 24 * 3600 * 1000);

    const shown = await view(link.token);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.data).toMatchObject({
      linkId: link.linkId,
      userId: 'bob',
      actions: ['approve', 'reject'],
      task: { id: task.id, activityId: 'approve', status: 'active' },
      instance: { id: instanceId, processKey: 'al_single', initiatorId: 'alice' },
      variables: { amount: 5 },
    });
    expect(shown.body.data.variables.secret).toBeUndefined();

    const done = await decide(link.token, { action: 'approve', comment: 'fine by mail' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({
      linkId: link.linkId,
      action: 'approve',
      task: { id: task.id, status: 'completed', result: 'approved' },
      instance: { id: instanceId, status: 'completed' },
    });
    const approve = (await instance(t.admin, instanceId)).trail.find((e: any) => e.type === 'approve');
    expect(approve).toMatchObject({
      userId: 'bob',
      comment: 'fine by mail',
      detail: { channel: 'link', linkId: link.linkId, via: 'email' },
    });

    const notes = await api('/api/v1/notifications?kind=task_decided_by_link', { token: t.bob });
    expect(notes.body.data.items).toEqual([
      expect.objectContaining({
        taskId: task.id,
        payload: expect.objectContaining({ decision: 'approve', linkId: link.linkId, via: 'email' }),
      }),
    ]);

    // used: 410 for view and use, nothing changes
    refused(await view(link.token), 410, 41070, 'used');
    refused(await decide(link.token, { action: 'reject' }), 410, 41070, 'used');
    expect((await instance(t.admin, instanceId)).status).toBe('completed');
    const listed = await api(`/api/v1/workflow/tasks/${task.id}/links`, { token: t.bob });
    expect(listed.body.data).toEqual([expect.objectContaining({ linkId: link.linkId, usedAction: 'approve' })]);
    expect(listed.body.data[0].token).toBeUndefined();
    // revoking a used link is refused
    refused(
      await api(`/api/v1/workflow/tasks/${task.id}/links/${link.linkId}`, { method: 'DELETE', token: t.bob }),
      409,
      40901,
    );
  });

  it('rejects through a link; the system (workflow:admin) mints for the assignee with its channel', async () => {
    const instanceId = await start(t.alice, 'al_single');
    const task = await myTask(t.bob, instanceId);
    const res = await mint(task.id, t.admin, { via: 'chat', actions: ['reject'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ userId: 'bob', createdBy: 'admin', via: 'chat', actions: ['reject'] });
    const link = res.body.data.token;
    // this link only rejects; a refused use leaves it usable
    refused(await decide(link, { action: 'approve' }), 403, 40300);
    const done = await decide(link, { action: 'reject', comment: 'no' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.instance.status).toBe('rejected');
    const entry = (await instance(t.admin, instanceId)).trail.find((e: any) => e.type === 'reject');
    expect(entry).toMatchObject({ userId: 'bob', detail: { channel: 'link', via: 'chat' } });
  });

  it('refuses to mint for others, on closed or pool tasks, for another person, and bad bodies', async () => {
    const { instanceId, task } = await bobsTask();
    refused(await mint(task.id, t.alice), 403, 40300); // the initiator, not the assignee
    refused(await mint(task.id, t.erin), 404, 40400); // takes no part
    refused(await mint(task.id, t.admin, { userId: 'carol' }), 409, 40907);
    refused(await mint(task.id, t.bob, { extra: true }), 400, 40003);
    refused(await mint(task.id, t.bob, { actions: ['withdraw'] }), 400, 40001);
    refused(await mint('no-such-task', t.bob), 404, 40400);
    // a pool task gets no link until it is claimed
    const pooled = await start(t.alice, 'al_pool');
    const poolTask = (await api(`/api/v1/workflow/tasks?instanceId=${pooled}`, { token: t.admin })).body.data.items[0];
    refused(await mint(poolTask.id, t.frank), 409, 40901);
    await actOk(t.frank, poolTask.id, 'claim');
    expect((await mint(poolTask.id, t.frank)).status).toBe(201);
    // a link minted before the task closed dies with it
    const early = (await mint(task.id, t.admin)).body.data;
    await actOk(t.bob, task.id, 'approve');
    refused(await mint(task.id, t.bob), 409, 40971);
    refused(await view(early.token), 410, 41070, 'closed');
    refused(await decide(early.token, { action: 'approve' }), 410, 41070, 'closed');
    const links = (await api(`/api/v1/workflow/tasks/${task.id}/links`, { token: t.admin })).body.data;
    expect(links.find((l: any) => l.linkId === early.linkId).closedAt).not.toBeNull();
    expect((await instance(t.admin, instanceId)).trail.filter((e: any) => e.type === 'approve')).toHaveLength(1);
  });

  it('an expired link answers 410 and changes nothing', async () => {
    const { task, link } = await bobsTask({ ttlSeconds: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    refused(await view(link.token), 410, 41070, 'expired');
    refused(await decide(link.token, { action: 'approve' }), 410, 41070, 'expired');
    expect((await myTask(t.bob, task.instanceId)).status).toBe('active');
  });

  it('a revoked link answers 410; only its user, who minted it or an admin revokes', async () => {
    const { instanceId, task, link } = await bobsTask();
    const url = `/api/v1/workflow/tasks/${task.id}/links/${link.linkId}`;
    refused(await api(url, { method: 'DELETE', token: t.alice }), 403, 40300);
    refused(await api(`/api/v1/workflow/tasks/${task.id}/links/nope`, { method: 'DELETE', token: t.bob }), 404, 40400);
    const revoked = await api(url, { method: 'DELETE', token: t.bob });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expect((await api(url, { method: 'DELETE', token: t.admin })).body.data.revokedAt).toBe(
      revoked.body.data.revokedAt,
    );
    refused(await view(link.token), 410, 41070, 'revoked');
    refused(await decide(link.token, { action: 'approve' }), 410, 41070, 'revoked');
    expect((await instance(t.admin, instanceId)).status).toBe('active');
  });

  it('a link whose task moved to someone else answers 410', async () => {
    const { task, link } = await bobsTask();
    await actOk(t.bob, task.id, 'transfer', { assigneeUserId: 'carol' });
    refused(await view(link.token), 410, 41070, 'reassigned');
    refused(await decide(link.token, { action: 'approve' }), 410, 41070, 'reassigned');
    expect((await myTask(t.carol, task.instanceId)).status).toBe('active');
  });

  it('a tampered, forged or foreign token answers 401 and changes nothing', async () => {
    const { instanceId, link } = await bobsTask();
    const [h, p, sig] = link.token.split('.');
    const flipped = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const swapped = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'carol' })).toString('base64url')}.${sig}`;
    const forged = await new SignJWT({ tid: claims.tid, task: claims.task, act: ['approve'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(claims.jti)
      .setSubject('bob')
      .setIssuer(claims.iss)
      .setAudience(claims.aud)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('y'.repeat(48)));
    for (const bad of [flipped, swapped, forged, 'garbage', t.bob]) {
      refused(await view(bad), 401, 40170);
      refused(await decide(bad, { action: 'approve' }), 401, 40170);
    }
    expect((await instance(t.admin, instanceId)).status).toBe('active');
    // the genuine link still works
    expect((await decide(link.token, { action: 'approve' })).status).toBe(200);
  });

  it('used twice at once: exactly one use wins', async () => {
    const { instanceId, link } = await bobsTask();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => decide(link.token, { action: i % 2 ? 'reject' : 'approve' })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 410, 410, 410, 410]);
    const winner = answers.find((a) => a.status === 200)!;
    const trail = (await instance(t.admin, instanceId)).trail.filter(
      (e: any) => e.type === 'approve' || e.type === 'reject',
    );
    expect(trail).toHaveLength(1);
    expect(trail[0].type).toBe(winner.body.data.action);
  });

  it('tokens that do not verify are rate-limited per address (429, RateLimit headers); a real link never is', async () => {
    const { link } = await bobsTask();
    const forged = `${link.token.slice(0, -4)}AAAA`;
    let last = await view(forged);
    expect([401, 429]).toContain(last.status); // other forged tokens of this file may have spent the budget
    expect(last.headers.get('ratelimit-policy')).toMatch(/^\d+;w=\d+$/);
    expect(last.headers.get('ratelimit')).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
    for (let i = 0; i < 40 && last.status !== 429; i++) last = await view(forged);
    refused(last, 429, 42900);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // The address is over its budget, yet a link whose signature holds is served and decides.
    const shown = await view(link.token);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.headers.get('ratelimit')).toBeNull();
    expect((await decide(link.token, { action: 'approve' })).status).toBe(200);
    // Used, it is gone (410) as often as it is asked for: never 429.
    for (let i = 0; i < 3; i++) refused(await view(link.token), 410, 41070, 'used');
    // Give the address its budget back: other files' requests with made-up tokens count on it too.
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    await db.query(`delete from rate_limits where key like 'approve-link:%'`).finally(() => db.end());
  });

  it('refuses a ttlSeconds over APPROVAL_LINK_TTL_SECONDS instead of shortening it', async () => {
    const instanceId = await start(t.alice, 'al_single', { amount: 1 });
    const task = await myTask(t.bob, instanceId);
    const max = 3 * 24 * 3600;
    const over = await mint(task.id, t.bob, { ttlSeconds: max + 1 });
    refused(over, 400, 40001);
    expect(over.body.data.fields[0].path).toBe('ttlSeconds');
    const exact = await mint(task.id, t.bob, { ttlSeconds: max });
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect(Date.parse(exact.body.data.expiresAt) - Date.now()).toBeGreaterThan((max - 60) * 1000);
  });
});
