// Migrating running instances to another version over real HTTP (docs/operations.md, "Migrating
// instances"): same graph, renamed node with mapping, removed node with and without mapping, an
// active fork region, a sub-process parent, the batch, and every refusal.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant, createTenant } from '../helpers/api.js';
import { temporalClient } from '../helpers/temporal.js';
import { actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';
import { conn, graphDoc as doc, node, user, wire } from '../helpers/dsl.js';

const base = '/api/v1/workflow/process-instances';
/** start → the userTasks in a row → end. */
const chain = (key: string, ...steps: Array<[id: string, who: string]>) =>
  doc(
    key,
    [node('s', 'startTask'), ...steps.map(([id, who]) => user(id, [who])), node('end', 'end')],
    ['s', ...steps.map(([id]) => id), 'end'].slice(1).map((to, i, all) => conn(i === 0 ? 's' : all[i - 1], to)),
  );

let t: Record<string, string>;
let tenantId: string;
let foreign: string;
const client = temporalClient();

const migrate = (id: string, body: unknown, token = t.admin) => api(`${base}/${id}/migrate`, { token, body });
const migrateOk = async (id: string, body: unknown) => {
  const res = await migrate(id, body);
  if (res.status !== 200) throw new Error(`migrate ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};
const task = async (id: string) => (await api(`/api/v1/workflow/tasks/${id}`, { token: t.admin })).body.data;
const openTasks = async (id: string) =>
  (await api(`/api/v1/workflow/tasks?instanceId=${id}&status=pending,active,waiting`, { token: t.admin })).body.data
    .items as any[];
const migrations = async (id: string) =>
  ((await instance(t.admin, id)).trail as any[]).filter((e) => e.type === 'migrate');

beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('mig'));
  ({ adminToken: foreign } = await createTenant('mig-x'));
});

describe('single instance', () => {
  it('same graph: a dry run changes nothing; applying keeps the task, swaps the version and is idempotent', async () => {
    const v1 = await deploy(t.admin, chain('same', ['a', 'bob']));
    const id = await start(t.alice, 'same');
    const before = await myTask(t.bob, id, 'a');
    const v2 = await deploy(t.admin, chain('same', ['a', 'bob']));
    expect(v2.version).toBe(v1.version + 1);

    const dry = await migrateOk(id, { targetDefinitionId: v2.id, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, changed: true, migratable: true, fromVersion: 1, toVersion: 2 });
    expect(dry.plan.nodes).toMatchObject([{ nodeId: 'a', wait: 'task', outcome: 'kept', to: 'a' }]);
    expect(dry.plan.tasks).toMatchObject([{ taskId: before.id, outcome: 'kept', to: 'a' }]);
    // The dry run links the node-level difference of the two versions, and the link answers.
    expect(dry.compare).toBe(`/api/v1/workflow/process-definitions/${v1.id}/compare/${v2.id}`);
    const diff = await api(dry.compare, { token: t.admin });
    expect(diff.status).toBe(200);
    expect(diff.body.data).toMatchObject({ from: { id: v1.id }, to: { id: v2.id }, added: [], removed: [] });
    expect(await instance(t.admin, id)).toMatchObject({ processVersion: 1, definitionId: v1.id });
    expect(await migrations(id)).toEqual([]);

    const done = await migrateOk(id, { targetDefinitionId: v2.id });
    expect(done).toMatchObject({ dryRun: false, changed: true, fromVersion: 1, toVersion: 2, status: 'active' });
    // The read model follows before the answer.
    expect(await instance(t.admin, id)).toMatchObject({ processVersion: 2, definitionId: v2.id, currentNodes: ['a'] });
    const [entry] = await migrations(id);
    expect(entry).toMatchObject({ userId: 'admin', detail: { fromVersion: 1, toVersion: 2, mapping: {} } });
    expect((await task(before.id)).status).toBe('active');

    const again = await migrateOk(id, { targetDefinitionId: v2.id });
    expect(again).toMatchObject({ changed: false, plan: null, fromVersion: 2, toVersion: 2 });
    expect(await migrations(id)).toHaveLength(1);

    await actOk(t.bob, before.id, 'approve');
    expect((await instance(t.admin, id)).status).toBe('completed');
  });

  it('honours Idempotency-Key: a retry repeats the first answer, the key with another body is 422', async () => {
    await deploy(t.admin, chain('idem', ['a', 'bob']));
    const id = await start(t.alice, 'idem');
    const v2 = await deploy(t.admin, chain('idem', ['a', 'bob']));
    const headers = { 'Idempotency-Key': `migrate-${id}` };
    const send = (body: unknown) => api(`${base}/${id}/migrate`, { token: t.admin, body, headers });
    const first = await send({ targetDefinitionId: v2.id });
    expect(first.status).toBe(200);
    expect(first.body.data.changed).toBe(true);
    const retry = await send({ targetDefinitionId: v2.id });
    expect(retry.body.data).toEqual(first.body.data);
    const other = await send({ targetDefinitionId: v2.id, dryRun: true });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe(42201);
    expect(await migrations(id)).toHaveLength(1);
  });

  it('renamed node: refused without a mapping; with one the task moves and the flow follows the new graph', async () => {
    await deploy(t.admin, chain('renamed', ['a', 'bob']));
    const id = await start(t.alice, 'renamed');
    const open = await myTask(t.bob, id, 'a');
    const v2 = await deploy(t.admin, chain('renamed', ['review', 'bob'], ['b', 'carol']));

    const dry = await migrateOk(id, { targetDefinitionId: v2.id, dryRun: true });
    expect(dry.migratable).toBe(false);
    expect(dry.plan.refusals[0].reason).toContain('no counterpart');
    expect(dry.plan.tasks[0]).toMatchObject({ taskId: open.id, outcome: 'refused' });
    const refused = await migrate(id, { targetDefinitionId: v2.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe(40920);
    expect(refused.body.data.refusals[0]).toMatchObject({ nodeId: 'a' });
    expect(refused.body.message).toContain('nodeMapping');

    const nodeMapping = { a: 'review' };
    const plan = (await migrateOk(id, { targetDefinitionId: v2.id, nodeMapping, dryRun: true })).plan;
    expect(plan.nodes[0]).toMatchObject({ nodeId: 'a', outcome: 'moved', to: 'review' });
    expect(plan.tasks[0]).toMatchObject({ taskId: open.id, outcome: 'moved', to: 'review', toName: 'review' });

    const done = await migrateOk(id, { targetDefinitionId: v2.id, nodeMapping });
    expect(done.plan.tasks[0].outcome).toBe('moved');
    expect(await task(open.id)).toMatchObject({
      activityId: 'review',
      name: 'review',
      status: 'active',
      assignee: 'bob',
    });
    expect((await instance(t.admin, id)).currentNodes).toEqual(['review']);
    expect((await migrations(id))[0].detail).toMatchObject({ mapping: nodeMapping, fromVersion: 1, toVersion: 2 });

    await actOk(t.bob, open.id, 'approve');
    const next = await myTask(t.carol, id, 'b');
    await actOk(t.carol, next.id, 'approve');
    expect((await instance(t.admin, id)).status).toBe('completed');
  });

  it('removed node: refused without a mapping; mapped to a userTask its task moves, mapped to the end it is cancelled', async () => {
    const v1Doc = chain('removed', ['a', 'bob'], ['b', 'carol']);
    await deploy(t.admin, v1Doc);
    const ids = [await start(t.alice, 'removed'), await start(t.alice, 'removed')];
    for (const id of ids) await actOk(t.bob, (await myTask(t.bob, id, 'a')).id, 'approve');
    const v2 = await deploy(t.admin, chain('removed', ['a', 'bob']));

    const refused = await migrate(ids[0], { targetDefinitionId: v2.id });
    expect(refused.status).toBe(409);
    expect(refused.body.data.refusals[0].reason).toContain('b (userTask)');

    // Back to a: carol keeps her task, now at a.
    const carols = await myTask(t.carol, ids[0], 'b');
    const moved = await migrateOk(ids[0], { targetDefinitionId: v2.id, nodeMapping: { b: 'a' } });
    expect(moved.plan.tasks[0]).toMatchObject({ taskId: carols.id, outcome: 'moved', to: 'a' });
    expect(await task(carols.id)).toMatchObject({ activityId: 'a', assignee: 'carol', status: 'active' });
    await actOk(t.carol, carols.id, 'approve');
    expect((await instance(t.admin, ids[0])).status).toBe('completed');

    // To the end: the open task is cancelled and the path runs the end.
    const other = await myTask(t.carol, ids[1], 'b');
    const dry = await migrateOk(ids[1], { targetDefinitionId: v2.id, nodeMapping: { b: 'end' }, dryRun: true });
    expect(dry.plan.nodes[0]).toMatchObject({ outcome: 'restarted', to: 'end' });
    expect(dry.plan.tasks[0]).toMatchObject({ taskId: other.id, outcome: 'cancelled', to: 'end' });
    expect((await task(other.id)).status).toBe('active');
    const ended = await migrateOk(ids[1], { targetDefinitionId: v2.id, nodeMapping: { b: 'end' } });
    expect(ended.status).toBe('completed');
    expect(await task(other.id)).toMatchObject({ status: 'cancelled', result: 'cancelled' });
    expect(await instance(t.admin, ids[1])).toMatchObject({ status: 'completed', processVersion: 2 });
  });

  it('a mapping naming a node the target (or the current version) lacks is 422 and changes nothing', async () => {
    await deploy(t.admin, chain('badmap', ['a', 'bob']));
    const id = await start(t.alice, 'badmap');
    const v2 = await deploy(t.admin, chain('badmap', ['b', 'bob']));
    for (const nodeMapping of [{ a: 'nowhere' }, { ghost: 'b' }]) {
      for (const dryRun of [true, false]) {
        const res = await migrate(id, { targetDefinitionId: v2.id, nodeMapping, dryRun });
        expect(res.status, JSON.stringify(nodeMapping)).toBe(422);
        expect(res.body.code).toBe(42221);
        expect(res.body.data.problems).toHaveLength(1);
      }
    }
    expect(await instance(t.admin, id)).toMatchObject({ processVersion: 1, currentNodes: ['a'] });
  });
});

describe('failed instance', () => {
  it('a failed node is migrated to a corrected version; the re-drive runs it there', async () => {
    const picky = (withDefault: boolean) =>
      doc(
        'picky',
        [
          node('s', 'startTask'),
          node('sw', 'switch', { cases: [{ case: 'msg.amount > 100', then: 'big' }] }),
          user('big', ['carol']),
          ...(withDefault ? [user('small', ['bob'])] : []),
          node('end', 'end'),
        ],
        [
          conn('s', 'sw'),
          conn('sw', 'big', 'big'),
          conn('big', 'end'),
          ...(withDefault ? wire('sw>small:Default small>end') : []),
        ],
      );
    await deploy(t.admin, picky(false));
    const id = await start(t.alice, 'picky', { amount: 5 });
    expect((await instance(t.admin, id)).status).toBe('failed');
    const v2 = await deploy(t.admin, picky(true));

    const done = await migrateOk(id, { targetDefinitionId: v2.id });
    expect(done.plan.nodes).toMatchObject([{ nodeId: 'sw', wait: 'failed', outcome: 'kept' }]);
    expect(await instance(t.admin, id)).toMatchObject({ status: 'failed', processVersion: v2.version });
    expect((await api(`${base}/${id}/re-drive`, { token: t.admin, body: {} })).status).toBe(200);
    await actOk(t.bob, (await myTask(t.bob, id, 'small')).id, 'approve');
    expect((await instance(t.admin, id)).status).toBe('completed');
  });
});

describe('continue-as-new', () => {
  it('a migrated instance keeps its new definition, version, memo and search attribute in the next run', async () => {
    await deploy(t.admin, chain('carry', ['a', 'bob']));
    const id = await start(t.alice, 'carry');
    const open = await myTask(t.bob, id, 'a');
    const v2 = await deploy(t.admin, chain('carry', ['a', 'bob'], ['b', 'carol']));
    await migrateOk(id, { targetDefinitionId: v2.id });
    const workflowId = `approval-${tenantId}-${id}`;
    const described = await client.workflow.getHandle(workflowId).describe();
    expect(await described.memo).toMatchObject({ processVersion: v2.version, definitionId: v2.id });
    expect((described.searchAttributes as Record<string, unknown[]>).ProcessVersion).toEqual([v2.version]);
    // Variable writes grow the history past the test stack's limit (60 events): the run continues as new.
    for (let i = 0; i < 12; i++) {
      const res = await api(`${base}/${id}/variables`, { token: t.admin, body: { variables: { [`v${i}`]: i } } });
      expect(res.status).toBe(200);
    }
    const runs: string[] = [];
    for await (const w of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(w.status.name);
    expect(runs).toContain('CONTINUED_AS_NEW');
    await actOk(t.bob, open.id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id, 'b')).id, 'approve'); // v2's graph, after the new run
    expect(await instance(t.admin, id)).toMatchObject({ status: 'completed', processVersion: v2.version });
  });
});

describe('parallel regions', () => {
  const forkDoc = (key: string, branches: Array<[string, string]>, after: string) =>
    doc(
      key,
      [
        node('s', 'startTask'),
        node('f', 'fork'),
        ...branches.map(([id, who]) => user(id, [who])),
        node('j', 'join'),
        user('after', [after]),
        node('end', 'end'),
      ],
      [
        conn('s', 'f'),
        ...branches.flatMap(([id]) => [conn('f', id), conn(id, 'j')]),
        conn('j', 'after'),
        conn('after', 'end'),
      ],
    );

  it('an active fork region migrates when its fork, join and branches stay; the new version applies after the join', async () => {
    await deploy(
      t.admin,
      forkDoc(
        'forky',
        [
          ['ta', 'bob'],
          ['tb', 'carol'],
        ],
        'dave',
      ),
    );
    const id = await start(t.alice, 'forky');
    const v2 = await deploy(
      t.admin,
      forkDoc(
        'forky',
        [
          ['ta', 'bob'],
          ['tb', 'carol'],
        ],
        'erin',
      ),
    );
    const v3 = await deploy(
      t.admin,
      forkDoc(
        'forky',
        [
          ['ta', 'bob'],
          ['tb', 'carol'],
          ['tc', 'dave'],
        ],
        'erin',
      ),
    );

    const changed = await migrate(id, { targetDefinitionId: v3.id });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe(40920);
    expect(changed.body.message).toContain('join j: its branches change');
    const out = await migrate(id, { targetDefinitionId: v2.id, nodeMapping: { ta: 'after' } });
    expect(out.status).toBe(409);
    expect(out.body.message).toContain('after is not inside the parallel region of f');

    const done = await migrateOk(id, { targetDefinitionId: v2.id });
    expect(done.plan.nodes.map((n: any) => [n.nodeId, n.outcome]).sort()).toEqual([
      ['ta', 'kept'],
      ['tb', 'kept'],
    ]);
    await actOk(t.bob, (await myTask(t.bob, id, 'ta')).id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id, 'tb')).id, 'approve');
    await actOk(t.erin, (await myTask(t.erin, id, 'after')).id, 'approve'); // v2's approver
    expect((await instance(t.admin, id)).status).toBe('completed');
  });
});

describe('sub-process parent', () => {
  it('keeps waiting for its child (which keeps its own version); moving it elsewhere is refused', async () => {
    await deploy(
      t.admin,
      doc('kid', [node('s', 'startTask'), user('cu', ['erin']), node('end', 'end')], wire('s>cu cu>end')),
    );
    const parentDoc = (subId: string, after: string) =>
      doc(
        'parent',
        [
          node('s', 'startTask'),
          node(subId, 'subProcess', { targetId: 'kid' }),
          user('after', [after]),
          node('end', 'end'),
        ],
        [conn('s', subId), conn(subId, 'after'), conn('after', 'end')],
      );
    await deploy(t.admin, parentDoc('sub', 'bob'));
    const id = await start(t.alice, 'parent');
    const kidTasks = async () =>
      ((await api(`${base}/todo`, { token: t.erin })).body.data.items as any[]).filter((x) => x.processKey === 'kid');
    await eventually(kidTasks, (x) => x.length === 1);
    const v2 = await deploy(t.admin, parentDoc('sub', 'carol'));
    const v3 = await deploy(t.admin, parentDoc('sub2', 'carol'));

    const moved = await migrate(id, { targetDefinitionId: v3.id, nodeMapping: { sub: 'sub2' } });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toContain('a sub-process or rule chain run is running here');

    const done = await migrateOk(id, { targetDefinitionId: v2.id });
    expect(done.plan.nodes).toMatchObject([{ nodeId: 'sub', wait: 'child', outcome: 'kept' }]);
    expect((await instance(t.admin, id)).processVersion).toBe(v2.version);

    const [kid] = await kidTasks();
    await actOk(t.erin, kid.id, 'approve');
    const next = await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.activityId === 'after'),
    );
    expect(next.find((y) => y.activityId === 'after').assignee).toBe('carol'); // v2's approver
  });
});

describe('refusals', () => {
  it('non-admin 403, unknown target 404, another key or a draft 422, not running 409, other tenant 404, unknown field 400', async () => {
    const v1 = await deploy(t.admin, chain('rules', ['a', 'bob']));
    const other = await deploy(t.admin, chain('rules-other', ['a', 'bob']));
    const id = await start(t.alice, 'rules');
    const v2 = await deploy(t.admin, chain('rules', ['a', 'bob']));
    const draft = await api('/api/v1/workflow/process-definitions', {
      token: t.admin,
      body: { dsl: chain('rules', ['a', 'bob']) },
    });
    expect(draft.status).toBe(201);

    const cases: Array<[string, unknown, number, number, string?]> = [
      ['non-admin', { targetDefinitionId: v2.id }, 403, 40300, t.alice],
      ['non-admin dry run', { targetDefinitionId: v2.id, dryRun: true }, 403, 40300, t.bob],
      ['unknown target', { targetDefinitionId: 'nope' }, 404, 40400],
      ['another key', { targetDefinitionId: other.id }, 422, 42220],
      ['another key (dry run)', { targetDefinitionId: other.id, dryRun: true }, 422, 42220],
      ['a draft', { targetDefinitionId: draft.body.data.id }, 422, 42220],
      ['unknown field', { targetDefinitionId: v2.id, force: true }, 400, 40003],
    ];
    for (const [what, body, status, code, token] of cases) {
      const res = await migrate(id, body, token ?? t.admin);
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).toBe(code);
    }
    expect((await migrate(id, { targetDefinitionId: v2.id }, foreign)).status).toBe(404);
    expect((await migrate('no-such-instance', { targetDefinitionId: v2.id })).status).toBe(404);
    expect(await instance(t.admin, id)).toMatchObject({ processVersion: v1.version });

    expect((await api(`${base}/${id}/suspend`, { token: t.admin, body: {} })).status).toBe(200);
    const suspended = await migrate(id, { targetDefinitionId: v2.id });
    expect(suspended.status).toBe(409);
    expect(suspended.body.message).toContain('suspended');
    expect((await api(`${base}/${id}/activate`, { token: t.admin, body: {} })).status).toBe(200);

    expect((await api(`${base}/${id}/terminate`, { token: t.admin, body: {} })).status).toBe(200);
    for (const dryRun of [true, false]) {
      const ended = await migrate(id, { targetDefinitionId: v2.id, dryRun });
      expect(ended.status).toBe(409);
      expect(ended.body.code).toBe(40901);
    }
  });
});

describe('batch', () => {
  it('migrates every running instance of a key and version, answering per instance; a repeat finds none', async () => {
    const v1 = await deploy(t.admin, chain('bulk', ['a', 'bob']));
    const ids = [await start(t.alice, 'bulk'), await start(t.alice, 'bulk'), await start(t.alice, 'bulk')];
    expect((await api(`${base}/${ids[2]}/suspend`, { token: t.admin, body: {} })).status).toBe(200);
    const v2 = await deploy(t.admin, chain('bulk', ['a', 'bob']));
    const body = { processKey: 'bulk', sourceVersion: v1.version, targetDefinitionId: v2.id };
    const batch = (b: unknown, token = t.admin) => api(`${base}/migrate`, { token, body: b });

    const dry = await batch({ ...body, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, total: 3, remaining: 0, toVersion: v2.version });
    const byId = (items: any[]) => Object.fromEntries(items.map((i) => [i.instanceId, i]));
    let items = byId(dry.body.data.items);
    expect(items[ids[0]]).toMatchObject({ ok: true, code: 0, message: 'would migrate', result: { migratable: true } });
    expect(items[ids[2]]).toMatchObject({ ok: false, code: 40901 });
    for (const id of ids) expect((await instance(t.admin, id)).processVersion).toBe(v1.version);

    const limited = await batch({ ...body, dryRun: true, limit: 1 });
    expect(limited.body.data).toMatchObject({ total: 3, remaining: 2 });
    expect(limited.body.data.items).toHaveLength(1);

    const applied = await batch(body);
    expect(applied.status).toBe(200);
    items = byId(applied.body.data.items);
    expect(items[ids[0]]).toMatchObject({ ok: true, message: 'migrated', result: { changed: true, toVersion: 2 } });
    expect(items[ids[1]].ok).toBe(true);
    expect(items[ids[2]]).toMatchObject({ ok: false, code: 40901 });
    for (const id of ids.slice(0, 2)) expect((await instance(t.admin, id)).processVersion).toBe(v2.version);

    const again = await batch(body);
    expect(again.body.data.total).toBe(1); // only the suspended one still runs version 1
    expect(again.body.data.items[0].instanceId).toBe(ids[2]);

    expect((await batch(body, t.alice)).status).toBe(403);
    expect((await batch({ ...body, processKey: 'same' })).body.code).toBe(42220);
    expect((await batch({ ...body, sourceDefinitionId: v1.id })).status).toBe(400);
    expect((await batch({ ...body, targetDefinitionId: 'nope' })).status).toBe(404);
  });
});
