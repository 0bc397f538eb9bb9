// Search and filters on the lists the console pages through (issue 46): definitions by text and
// status, instances by business-key text and checked statuses, my to-do and done by business key,
// initiator and due date, my copies by process and business key — matches, non-matches, paging with
// the filters, bad values refused (400), and another tenant's rows never.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant, createTenant } from '../helpers/api.js';
import { actOk, deploy, myTask, oneStep, start } from '../helpers/flow.js';

const defs = '/api/v1/workflow/process-definitions';
const instances = '/api/v1/workflow/process-instances';
const PAST = '2020-01-01T00:00:00Z';
const FUTURE = '2099-01-01T00:00:00Z';

let t: Record<string, string>;
let foreign: string;
const ids: Record<string, string> = {};

const get = async (token: string, path: string) => {
  const res = await api(path, { token });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data as { items: any[]; total: number; page: number; pageSize: number };
};
const status = async (token: string, path: string) => (await api(path, { token })).status;
const q = encodeURIComponent;

function named(key: string, name: string, category: string, description: string, approver = 'bob', dueDate?: string) {
  return oneStep(
    key,
    { approver: { type: 'user', userIds: [approver] }, ...(dueDate ? { dueDate } : {}) },
    { processInfo: { category, description } },
  );
}

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('lf'));
  ({ adminToken: foreign } = await createTenant('lf-x'));

  const leave = named('lf_leave', 'Leave request', 'HR', 'Days off, approved by the manager', 'bob', FUTURE);
  await deploy(t.admin, leave);
  await deploy(t.admin, leave); // v1 retired, v2 active
  await deploy(t.admin, named('lf_expense', 'Expense claim', 'Finance', 'Receipts 100% refunded', 'bob', PAST));
  for (let i = 1; i <= 25; i++)
    await deploy(t.admin, named(`lf_bulk_${String(i).padStart(2, '0')}`, `Bulk ${i}`, 'Ops', 'filler'));
  // The same words in another tenant.
  await deploy(foreign, named('lf_leave', 'Leave request', 'HR', 'Days off'));

  const copy = oneStep('lf_copy', { approver: { type: 'user', userIds: ['carol'] } });
  copy.metadata.nodes.splice(1, 0, {
    id: 'cc',
    type: 'ccTask',
    name: 'Copy',
    configuration: { ccUserIds: ['bob'] },
  } as any);
  copy.metadata.connections = [
    { fromId: 'start', toId: 'cc', type: 'Success' },
    { fromId: 'cc', toId: 'approve', type: 'Success' },
    { fromId: 'approve', toId: 'end', type: 'Success' },
  ];
  await deploy(t.admin, copy);

  ids.soon = await start(t.alice, 'lf_leave', {}, 'LR-2026-001');
  ids.late = await start(t.alice, 'lf_expense', {}, 'LR-2026-002');
  ids.carol = await start(t.carol, 'lf_expense', {}, 'EX_7');
  ids.decided = await start(t.carol, 'lf_leave', {}, 'EX-8');
  await actOk(t.bob, (await myTask(t.bob, ids.decided)).id, 'approve');
  ids.copy = await start(t.alice, 'lf_copy', {}, 'CC-1');
  await start(foreign, 'lf_leave', {}, 'LR-2026-001');
});

describe('definitions: q and status', () => {
  it('finds every word in the name, key, category or description, case-insensitively', async () => {
    const byName = await get(t.admin, `${defs}?q=leave`);
    expect(byName.items.map((d) => `${d.key} v${d.version}`).sort()).toEqual(['lf_leave v1', 'lf_leave v2']);
    expect((await get(t.admin, `${defs}?q=LF_EXP`)).items.map((d) => d.key)).toEqual(['lf_expense']);
    expect((await get(t.admin, `${defs}?q=finance`)).items.map((d) => d.key)).toEqual(['lf_expense']);
    expect((await get(t.admin, `${defs}?q=${q('manager days')}`)).total).toBe(2);
    expect((await get(t.admin, `${defs}?q=${q('leave finance')}`)).total).toBe(0);
    expect((await get(t.admin, `${defs}?q=nothing-like-it`)).total).toBe(0);
  });

  it('takes % and _ literally', async () => {
    expect((await get(t.admin, `${defs}?q=${q('100%')}`)).items.map((d) => d.key)).toEqual(['lf_expense']);
    expect((await get(t.admin, `${defs}?q=${q('%')}`)).items.map((d) => d.key)).toEqual(['lf_expense']);
    expect((await get(t.admin, `${defs}?q=${q('bulk_0')}`)).total).toBe(9);
  });

  it('joins q with status and category', async () => {
    const active = await get(t.admin, `${defs}?q=leave&status=active`);
    expect(active.items.map((d) => [d.key, d.version, d.status])).toEqual([['lf_leave', 2, 'active']]);
    expect((await get(t.admin, `${defs}?q=leave&status=retired`)).items.map((d) => d.version)).toEqual([1]);
    expect((await get(t.admin, `${defs}?q=leave&category=Finance`)).total).toBe(0);
  });

  it('pages through the matches only', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const p = await get(t.admin, `${defs}?q=bulk&pageSize=10&page=${page}`);
      expect(p.total).toBe(25);
      seen.push(...p.items.map((d) => d.key));
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen.every((k) => k.startsWith('lf_bulk_'))).toBe(true);
  });

  it('refuses a bad status, a q over 200 characters and a bad page (400)', async () => {
    expect(await status(t.admin, `${defs}?status=pending`)).toBe(400);
    expect(await status(t.admin, `${defs}?q=${'x'.repeat(201)}`)).toBe(400);
    expect(await status(t.admin, `${defs}?q=leave&page=0`)).toBe(400);
  });

  it("never answers another tenant's rows", async () => {
    const mine = await get(t.admin, `${defs}?q=leave`);
    const theirs = await get(foreign, `${defs}?q=leave`);
    expect(theirs.total).toBe(1);
    expect(theirs.items[0].description).toBe('Days off');
    expect(mine.items.map((d) => d.id)).not.toContain(theirs.items[0].id);
    expect((await get(foreign, `${defs}?q=bulk`)).total).toBe(0);
  });
});

describe('instances: q (business key) and statuses', () => {
  it('finds a part of the business key, joined with the other filters', async () => {
    const lr = await get(t.admin, `${instances}?q=lr-2026`);
    expect(lr.items.map((i) => i.id).sort()).toEqual([ids.soon, ids.late].sort());
    expect((await get(t.admin, `${instances}?q=LR-2026&processKey=lf_leave`)).items.map((i) => i.id)).toEqual([
      ids.soon,
    ]);
    expect((await get(t.admin, `${instances}?q=ex&status=completed`)).items.map((i) => i.id)).toEqual([ids.decided]);
    expect((await get(t.admin, `${instances}?q=ex&status=${q('active, completed')}`)).total).toBe(2);
    expect((await get(t.admin, `${instances}?q=ex&initiator=alice`)).total).toBe(0);
    // `_` is a character, not "any one": EX_7 only.
    expect((await get(t.admin, `${instances}?q=${q('ex_')}`)).items.map((i) => i.id)).toEqual([ids.carol]);
    // My applications (the console's list: initiator = me).
    expect((await get(t.alice, `${instances}?initiator=alice&q=lr`)).total).toBe(2);
  });

  it('pages through the matches', async () => {
    const p1 = await get(t.admin, `${instances}?q=lr&pageSize=1&page=1`);
    const p2 = await get(t.admin, `${instances}?q=lr&pageSize=1&page=2`);
    expect([p1.total, p2.total]).toEqual([2, 2]);
    expect([p1.items[0].id, p2.items[0].id].sort()).toEqual([ids.soon, ids.late].sort());
  });

  it('refuses an unknown status, a bad date and a long q (400)', async () => {
    expect(await status(t.admin, `${instances}?status=bogus`)).toBe(400);
    expect(await status(t.admin, `${instances}?status=active,bogus`)).toBe(400);
    expect(await status(t.admin, `${instances}?startedAfter=yesterday`)).toBe(400);
    expect(await status(t.admin, `${instances}?q=${'x'.repeat(201)}`)).toBe(400);
  });

  it("never answers another tenant's instances", async () => {
    const theirs = await get(foreign, `${instances}?q=LR-2026-001`);
    expect(theirs.total).toBe(1);
    expect(theirs.items[0].id).not.toBe(ids.soon);
    expect((await get(foreign, `${instances}?q=ex`)).total).toBe(0);
  });
});

describe('my to-do and done: q, initiator, due', () => {
  const todo = `${instances}/todo`;
  it('filters by business key text, initiator and due date', async () => {
    const all = await get(t.bob, todo);
    expect(all.items.map((x) => x.instanceId).sort()).toEqual([ids.soon, ids.late, ids.carol].sort());
    expect((await get(t.bob, `${todo}?q=lr`)).items.map((x) => x.instanceId).sort()).toEqual(
      [ids.soon, ids.late].sort(),
    );
    expect((await get(t.bob, `${todo}?initiator=carol`)).items.map((x) => x.instanceId)).toEqual([ids.carol]);
    const now = new Date().toISOString();
    expect((await get(t.bob, `${todo}?dueBefore=${q(now)}`)).items.map((x) => x.instanceId).sort()).toEqual(
      [ids.late, ids.carol].sort(),
    );
    expect((await get(t.bob, `${todo}?dueAfter=${q(now)}`)).items.map((x) => x.instanceId)).toEqual([ids.soon]);
    expect((await get(t.bob, `${todo}?initiator=alice&processKey=lf_expense`)).items.map((x) => x.instanceId)).toEqual([
      ids.late,
    ]);
    expect((await get(t.bob, `${todo}?q=nothing`)).total).toBe(0);
  });

  it('pages with the filters', async () => {
    const p2 = await get(t.bob, `${todo}?initiator=alice&pageSize=1&page=2`);
    expect(p2).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(p2.items).toHaveLength(1);
  });

  it('filters the done list the same way', async () => {
    expect((await get(t.bob, `${instances}/done?q=ex-8`)).items.map((x) => x.instanceId)).toEqual([ids.decided]);
    expect((await get(t.bob, `${instances}/done?initiator=alice`)).total).toBe(0);
  });

  it('refuses bad dates and a long q (400)', async () => {
    expect(await status(t.bob, `${todo}?dueBefore=tomorrow`)).toBe(400);
    expect(await status(t.bob, `${todo}?dueAfter=2026-13-01T00:00:00Z`)).toBe(400);
    expect(await status(t.bob, `${todo}?q=${'x'.repeat(201)}`)).toBe(400);
  });

  it("never answers another tenant's tasks", async () => {
    expect((await get(foreign, `${todo}?q=lr`)).total).toBe(0);
  });
});

describe('my copies: process and q', () => {
  it('filters by process and business key text', async () => {
    const cc = `${instances}/cc`;
    expect((await get(t.bob, cc)).items.map((x) => x.instanceId)).toEqual([ids.copy]);
    expect((await get(t.bob, `${cc}?q=cc-`)).items.map((x) => x.instanceId)).toEqual([ids.copy]);
    expect((await get(t.bob, `${cc}?processKey=lf_copy&q=1`)).total).toBe(1);
    expect((await get(t.bob, `${cc}?processKey=lf_leave`)).total).toBe(0);
    expect((await get(t.bob, `${cc}?q=lr`)).total).toBe(0);
    expect(await status(t.bob, `${cc}?q=${'x'.repeat(201)}`)).toBe(400);
  });
});

describe('the document', () => {
  it('describes the new query parameters', async () => {
    const doc = (await api('/openapi.json')).body as any;
    const params = (path: string) =>
      (doc.paths[path].get.parameters as Array<{ name: string; schema: any }>).map((p) => p.name);
    expect(params('/api/v1/workflow/process-definitions')).toEqual(expect.arrayContaining(['q', 'status']));
    expect(params('/api/v1/workflow/process-instances')).toEqual(expect.arrayContaining(['q', 'status']));
    expect(params('/api/v1/workflow/process-instances/todo')).toEqual(
      expect.arrayContaining(['q', 'initiator', 'dueBefore', 'dueAfter', 'processKey']),
    );
    expect(params('/api/v1/workflow/process-instances/cc')).toEqual(expect.arrayContaining(['q', 'processKey']));
  });
});
