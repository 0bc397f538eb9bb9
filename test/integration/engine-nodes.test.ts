import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { act, actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';
import { conn, graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';

const INSTANCES = '/api/v1/workflow/process-instances';
/** POST /start as `token`: the answer as it is (refusals included). */
const startRequest = (token: string, body: Record<string, unknown>) => api(`${INSTANCES}/start`, { token, body });

let t: Record<string, string>;
let n = 0;
const key = () => `n${++n}`;
/** A child process: one task for erin. */
async function deployChild() {
  const child = key();
  await deploy(
    t.admin,
    doc(child, [node('s', 'startTask'), user('cu', ['erin']), node('end', 'end')], wire('s>cu cu>end')),
  );
  return child;
}
/** s → subProcess(child) → `next` (bob's) → end. */
const parentDoc = (id: string, child: string, next: string) =>
  doc(
    id,
    [node('s', 'startTask'), node('sub', 'subProcess', { targetId: child }), user(next, ['bob']), node('end', 'end')],
    [conn('s', 'sub'), conn('sub', next), conn(next, 'end')],
  );
/** One more userTask off a decision: [edge type to it, its node id, its approver]. */
type Branch = [edge: string, nodeId: string, approver: string];
/**
 * s → switch sw → big (carol's) when `condition` holds; `otherwise` [edge type, node id, approver]
 * adds the other branch.
 */
function switchDoc(id: string, condition: string, otherwise?: Branch) {
  const [edge, other, approver] = otherwise ?? [];
  const branch = <T>(...items: T[]) => (other ? items : []);
  return doc(
    id,
    [
      node('s', 'startTask'),
      node('sw', 'switch', { cases: [{ case: condition, then: 'big' }] }),
      user('big', ['carol']),
      ...branch(user(other!, [approver!])),
      node('end', 'end'),
    ],
    [
      conn('s', 'sw'),
      conn('sw', 'big', 'big'),
      ...branch(conn('sw', other!, edge)),
      conn('big', 'end'),
      ...branch(conn(other!, 'end')),
    ],
  );
}
/** s → only (bob's; its reject goes back `toPrev`, where there is nothing) → end; `escape` adds the branch leaving `only`. */
function jumpDoc(id: string, escape?: Branch) {
  const [edge, other, approver] = escape ?? [];
  const branch = <T>(...items: T[]) => (other ? items : []);
  return doc(
    id,
    [
      node('s', 'startTask'),
      user('only', ['bob'], { reject: { strategy: 'toPrev' } }),
      ...branch(user(other!, [approver!])),
      node('end', 'end'),
    ],
    [conn('s', 'only'), conn('only', 'end'), ...branch(conn('only', other!, edge), conn(other!, 'end'))],
  );
}
/** bob rejects at `only` of a jumpDoc with that escape; the escape's approver gets its task. */
async function expectEscape(escape: Branch) {
  const id = await run(jumpDoc(key(), escape));
  await actOk(t.bob, (await myTask(t.bob, id)).id, 'reject');
  await myTask(t[escape[2]], id, escape[1]);
}
async function run(d: ReturnType<typeof doc>, variables: Record<string, unknown> = {}, who = 'alice') {
  await deploy(t.admin, d);
  return start(t[who], d.ruleChain.id, variables);
}
/** A switch on `condition`: `matching` variables reach carol's task, `others` go along Default to bob's. */
async function expectRoutes(condition: string, matching: Record<string, unknown>, others: Record<string, unknown>) {
  const k = key();
  const a = await run(switchDoc(k, condition, ['Default', 'small', 'bob']), matching);
  await myTask(t.carol, a);
  const b = await start(t.alice, k, others);
  await myTask(t.bob, b);
}
const open = async (id: string) =>
  (await api(`/api/v1/workflow/tasks?instanceId=${id}&status=pending,active`, { token: t.admin })).body.data
    .items as any[];

let receiver: Receiver;
let port = 0;
const calls: Array<{ method: string; url: string; body: string; auth?: string }> = [];

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('nd'));
  receiver = await startReceiver((req, body, res) => {
    calls.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization });
    if (req.url?.startsWith('/fail')) return res.writeHead(500).end('boom');
    if (req.url?.startsWith('/big'))
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(2 * 1024 * 1024));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ score: 42, nested: { level: 'gold' } }));
  });
  port = receiver.port;
});
afterAll(() => receiver.close());

describe('switch and inclusive', () => {
  it('switch takes the first true case, else Default', async () => {
    await expectRoutes("msg.amount > 100 and msg.kind == 'hw'", { amount: 500, kind: 'hw' }, { amount: 5, kind: 'hw' });
  });

  it('matches runs RE2 (re2js) inside the workflow sandbox', async () => {
    await expectRoutes(
      "msg.code matches '^PO-\\\\d+$' && !(msg.code matches '(a+)+$')",
      { code: 'PO-42' },
      { code: 'a'.repeat(5000) + '!' },
    );
  });

  it('a condition error takes the Failure edge; without one the instance fails and shows why', async () => {
    const k = key();
    const d = switchDoc(k, 'msg.amount > 100', ['Failure', 'oops', 'erin']);
    const a = await run(d, { amount: 'lots' });
    await myTask(t.erin, a);
    const k2 = key();
    const d2 = switchDoc(k2, 'msg.amount > 100');
    await deploy(t.admin, d2);
    const b = await start(t.alice, k2, { amount: 5 }, `FAIL-${k2}`);
    const inst = await instance(t.alice, b);
    expect(inst.status).toBe('failed');
    expect(inst.trail.at(-1).comment).toContain('no case matched');
    // Still running (waiting to be re-driven): its business key stays taken.
    const dup = await startRequest(t.alice, { processKey: k2, businessKey: `FAIL-${k2}`, variables: { amount: 500 } });
    expect(dup.status).toBe(409);
  });

  it('inclusive runs every true branch and joins them', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node('inc', 'inclusive', {
          cases: [
            { case: 'msg.a', then: 'A' },
            { case: 'msg.b', then: 'B' },
            { case: 'msg.c', then: 'C' },
          ],
        }),
        user('ta', ['bob']),
        user('tb', ['carol']),
        user('tc', ['dave']),
        node('j', 'join', { timeout: 0 }),
        node('end', 'end'),
      ],
      wire('s>inc inc>ta:A inc>tb:B inc>tc:C ta>j tb>j tc>j j>end'),
    );
    const id = await run(d, { a: true, b: true, c: false });
    expect((await open(id)).map((x) => x.assignee).sort()).toEqual(['bob', 'carol']);
    const first = await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    expect(first.instance.status).toBe('active');
    const second = await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    expect(second.instance.status).toBe('completed');
  });
});

describe('fork and join', () => {
  it('the expense claim: finance claims and checks while the budget owner approves; large claims go to the directors', async () => {
    const { example } = await import('../helpers/flow.js');
    await deploy(t.admin, example('expense-claim.json'));
    const id = await start(t.alice, 'expense_claim', { amount: 20000, currency: 'EUR', purpose: 'servers' });
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    const pool = (await open(id)).filter((x) => x.status === 'pending');
    expect(pool.map((x) => x.activityId).sort()).toEqual(['budget_owner', 'finance_check']);
    expect((await instance(t.alice, id)).currentNodes.sort()).toEqual(['budget_owner', 'finance_check']);
    const fin = pool.find((x) => x.activityId === 'finance_check');
    const budget = pool.find((x) => x.activityId === 'budget_owner');
    await actOk(t.grace, fin.id, 'claim');
    expect((await actOk(t.grace, fin.id, 'approve')).instance.status).toBe('active');
    await actOk(t.frank, budget.id, 'claim');
    await actOk(t.frank, budget.id, 'approve');
    const votes = (await open(id)).filter((x) => x.activityId === 'directors' && x.parentTaskId);
    expect(votes.map((x) => x.assignee).sort()).toEqual(['carol', 'dave', 'frank']);
    await actOk(t.carol, votes.find((x) => x.assignee === 'carol').id, 'approve');
    const done = await actOk(t.dave, votes.find((x) => x.assignee === 'dave').id, 'approve');
    expect(done.instance.status).toBe('completed');
  });

  it('the expense claim: a small claim skips the directors; a manager rejection goes back to the claimant', async () => {
    const id = await start(t.alice, 'expense_claim', { amount: 50 });
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'reject', { comment: 'receipt missing' });
    const resubmit = await myTask(t.alice, id);
    expect(resubmit.kind).toBe('resubmit');
    await actOk(t.alice, resubmit.id, 'approve', { comment: 'added' });
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    for (const [who, node] of [
      ['grace', 'finance_check'],
      ['frank', 'budget_owner'],
    ] as const) {
      const task = (await open(id)).find((x) => x.activityId === node);
      await actOk(t[who], task.id, 'claim');
      await actOk(t[who], task.id, 'approve');
    }
    expect((await instance(t.alice, id)).status).toBe('completed');
  });

  it('the purchase request with older GFlow keys: small goes to the team lead, large to a board majority', async () => {
    const { example } = await import('../helpers/flow.js');
    await deploy(t.admin, example('purchase-legacy-keys.json'));
    const small = await start(t.alice, 'purchase_request', { amount: 200 });
    const lead = await myTask(t.bob, small);
    expect((await actOk(t.bob, lead.id, 'approve')).instance.status).toBe('completed');
    expect(
      (await api('/api/v1/workflow/process-instances/cc', { token: t.frank })).body.data.items.map(
        (r: any) => r.instanceId,
      ),
    ).toContain(small);
    const large = await start(t.alice, 'purchase_request', { amount: 9000 });
    const board = (await open(large)).filter((x) => x.parentTaskId);
    expect(board.map((x) => x.assignee).sort()).toEqual(['carol', 'dave', 'frank']);
    expect(board.every((x) => x.dueDate)).toBe(true);
    await actOk(t.carol, board.find((x) => x.assignee === 'carol').id, 'reject');
    await actOk(t.dave, board.find((x) => x.assignee === 'dave').id, 'reject');
    expect((await instance(t.alice, large)).status).toBe('rejected');
    const lead2 = await start(t.alice, 'purchase_request', { amount: 100 });
    await actOk(t.bob, (await myTask(t.bob, lead2)).id, 'reject');
    expect((await myTask(t.alice, lead2)).kind).toBe('resubmit');
  });

  it('a join with a timeout takes Failure when a branch is late', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node('f', 'fork'),
        user('x', ['bob']),
        user('y', ['carol']),
        node('j', 'join', { timeout: 2 }),
        user('late', ['erin']),
        node('end', 'end'),
      ],
      wire('s>f f>x f>y x>j y>j j>end j>late:Failure late>end'),
    );
    const id = await run(d);
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    const late = await eventually(
      () => open(id),
      (tasks) => tasks.some((x) => x.activityId === 'late'),
    );
    expect(late.map((x) => x.activityId)).toEqual(['late']);
  });
});

describe('system nodes', () => {
  it('cc copies people and never blocks', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node('cc', 'ccTask', { ccUserIds: ['erin', 'frank'] }),
        node('cc2', 'ccTask', { selfSelect: true }),
        user('u', ['bob']),
        node('end', 'end'),
      ],
      wire('s>cc cc>cc2 cc2>u u>end'),
    );
    const id = await run(d, { ccUserIds_cc2: ['grace'] });
    for (const who of ['erin', 'frank', 'grace']) {
      const cc = await api('/api/v1/workflow/process-instances/cc', { token: t[who] });
      expect(
        cc.body.data.items.map((r: any) => r.instanceId),
        who,
      ).toContain(id);
    }
    expect((await instance(t.erin, id)).id).toBe(id);
  });

  it('serviceTask merges its result; a failing one takes Failure', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node('calc', 'serviceTask', { functionName: 'sum', param: '{"target":"total","fields":["a","b"]}' }),
        node('boom', 'serviceTask', { functionName: 'fail', param: 'on purpose' }),
        user('review', ['bob']),
        user('fallback', ['carol']),
        node('end', 'end'),
      ],
      wire('s>calc calc>boom boom>review boom>fallback:Failure review>end fallback>end'),
    );
    const id = await run(d, { a: 2, b: 3 });
    await myTask(t.carol, id);
    expect((await instance(t.alice, id)).variables.total).toBe(5);
  });

  it('httpCall sends the rendered request and maps the answer into variables', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node('h', 'httpCall', {
          url: `http://localhost:${port}/score?who=\${msg.who}`,
          method: 'POST',
          headers: { Authorization: 'Bearer ${msg.secret}' },
          body: '{"id":"${metadata.business_key}"}',
          outputMappings: [{ from: 'nested.level', to: 'level' }],
        }),
        user('u', ['bob']),
        node('end', 'end'),
      ],
      wire('s>h h>u u>end'),
    );
    await deploy(t.admin, d);
    const id = await start(t.alice, k, { who: 'alice', secret: 's3' }, `BK-${k}`);
    await eventually(
      () => open(id),
      (x) => x.length === 1,
    );
    const inst = await instance(t.alice, id);
    // Engine version 3: the answer object itself under _http (as GFlow keeps it), the status beside it.
    expect(inst.variables).toMatchObject({
      score: 42,
      level: 'gold',
      _http: { score: 42, nested: { level: 'gold' } },
      _httpStatus: 200,
    });
    const call = calls.find((c) => c.url === '/score?who=alice')!;
    expect(call).toMatchObject({ method: 'POST', body: `{"id":"BK-${k}"}`, auth: 'Bearer s3' });
  });

  it('httpCall refuses loopback addresses that are not allowed, a 500 and a response over the size limit', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node('h', 'httpCall', { url: `http://127.0.0.1:${port}/x` }),
        node('h2', 'httpCall', { url: `http://localhost:${port}/fail` }),
        node('h3', 'httpCall', { url: `http://localhost:${port}/big` }),
        user('u', ['bob']),
        node('end', 'end'),
      ],
      wire('s>h h>u h>h2:Failure h2>u h2>h3:Failure h3>u h3>end:Failure u>end'),
    );
    const id = await run(d);
    const inst = await eventually(
      () => instance(t.alice, id),
      (i) => i.status !== 'active',
    );
    const notes = inst.trail.map((e: any) => e.comment ?? '').join('\n');
    expect(notes).toContain('loopback');
    expect(notes).toContain('answered 500');
    expect(notes).toContain('larger than');
    expect(calls.some((c) => c.url === '/x')).toBe(false);
    expect(inst.status).toBe('completed');
  });

  it('delay waits, then moves on; an admin may end it early', async () => {
    const k = key();
    const d = doc(
      k,
      [node('s', 'startTask'), node('d', 'delay', { delayMs: '${msg.wait}' }), user('u', ['bob']), node('end', 'end')],
      wire('s>d d>u u>end'),
    );
    const a = await run(d, { wait: 1500 });
    await eventually(
      () => open(a),
      (x) => x.some((y) => y.activityId === 'u'),
      15_000,
    );
    const b = await start(t.alice, k, { wait: 3_600_000 });
    const tasks = (await api(`/api/v1/workflow/tasks?instanceId=${b}`, { token: t.admin })).body.data.items;
    const delay = tasks.find((x: any) => x.kind === 'delay');
    expect(delay.status).toBe('waiting');
    expect((await act(t.bob, delay.id, 'complete')).status).toBe(404);
    const res = await actOk(t.admin, delay.id, 'complete');
    expect(res.task.status).toBe('completed');
    await myTask(t.bob, b);
  });

  it('subProcess starts the child and continues when it completes', async () => {
    const child = await deployChild();
    const parent = key();
    const id = await run(parentDoc(parent, child, 'after'));
    const childTask = await eventually(
      async () =>
        (await api('/api/v1/workflow/process-instances/todo', { token: t.erin })).body.data.items.filter(
          (x: any) => x.processKey === child,
        ),
      (x) => x.length === 1,
    );
    expect(childTask[0].initiatorId).toBe('alice');
    await actOk(t.erin, childTask[0].id, 'approve');
    await eventually(
      () => open(id),
      (x) => x.some((y) => y.activityId === 'after'),
    );
  });
});

describe('sub-process outcomes', () => {
  it('a rejected child takes the Failure edge; without one the parent is terminated with the reason', async () => {
    const child = await deployChild();
    const withFailure = key();
    const a = await run(
      doc(
        withFailure,
        [
          node('s', 'startTask'),
          node('sub', 'subProcess', { targetId: child }),
          user('ok', ['bob']),
          user('rescue', ['carol']),
          node('end', 'end'),
        ],
        wire('s>sub sub>ok sub>rescue:Failure ok>end rescue>end'),
      ),
    );
    const childOf = async (parentKey: string) =>
      eventually(
        async () =>
          (await api('/api/v1/workflow/process-instances/todo', { token: t.erin })).body.data.items.filter(
            (x: any) => x.processKey === child && x.businessKey?.startsWith(parentKey),
          ),
        (x) => x.length === 1,
      );
    const [ca] = await childOf(a);
    await actOk(t.erin, ca.id, 'reject');
    await eventually(
      () => open(a),
      (x) => x.some((y) => y.activityId === 'rescue'),
    );
    const bare = key();
    const b = await run(parentDoc(bare, child, 'ok'));
    const [cb] = await childOf(b);
    await actOk(t.erin, cb.id, 'reject');
    const inst = await eventually(
      () => instance(t.alice, b),
      (i) => i.status !== 'active',
    );
    expect(inst.status).toBe('terminated');
    expect(inst.endReason).toContain('rejected');
    expect(inst.endCode).toBe('end.subProcess');
    expect(inst.endParams).toMatchObject({ status: 'rejected' });
  });
});

describe('reject strategies', () => {
  const chain = (k: string, reject: Record<string, unknown>, extraConns: unknown[] = [], extraNodes: unknown[] = []) =>
    doc(
      k,
      [
        node('s', 'startTask'),
        user('first', ['bob']),
        user('second', ['carol'], { reject }),
        node('end', 'end'),
        ...extraNodes,
      ],
      [conn('s', 'first'), conn('first', 'second'), conn('second', 'end'), ...extraConns],
    );

  it('toPrev gives the previous approval node fresh tasks', async () => {
    const id = await run(chain(key(), { strategy: 'toPrev' }));
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    const res = await actOk(t.carol, (await myTask(t.carol, id)).id, 'reject');
    expect(res.instance.status).toBe('active');
    const again = await myTask(t.bob, id);
    expect(again.activityId).toBe('first');
  });

  it('toNode jumps to its target', async () => {
    const id = await run(chain(key(), { strategy: 'toNode', target: 'first' }));
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'reject');
    await myTask(t.bob, id, 'first');
  });

  it('toStarter with a startTask: the initiator resubmits, and the flow runs again', async () => {
    const id = await run(chain(key(), { strategy: 'toStarter' }));
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'reject', { comment: 'fix the dates' });
    const resubmit = await myTask(t.alice, id);
    expect(resubmit).toMatchObject({ kind: 'resubmit', activityId: 's' });
    const res = await actOk(t.alice, resubmit.id, 'complete', { variables: { fixed: true } });
    expect(res.instance.status).toBe('active');
    await myTask(t.bob, id, 'first');
    expect((await instance(t.alice, id)).variables.fixed).toBe(true);
  });

  it('actionPermissions.resubmit false refuses approving or completing the resubmit task (403)', async () => {
    const k = key();
    const base = chain(k, { strategy: 'toStarter' });
    const id = await run(
      doc(k, base.metadata.nodes, base.metadata.connections, { actionPermissions: { resubmit: false } }),
    );
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'reject', { comment: 'fix it' });
    const resubmit = await myTask(t.alice, id);
    expect(resubmit.kind).toBe('resubmit');
    for (const action of ['approve', 'complete']) {
      const res = await act(t.alice, resubmit.id, action, { variables: { fixed: true } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(40302);
      expect(res.body.message).toContain('resubmit');
    }
    // Nothing was written: still waiting for the resubmit, variables untouched, and not offered.
    const detail = (await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: t.alice })).body.data;
    expect(detail.instance.variables.fixed).toBeUndefined();
    expect(detail.permissions).not.toContain('complete');
    expect(detail.permissions).not.toContain('approve');
    expect(detail.permissions).toContain('withdraw');
    expect((await myTask(t.alice, id)).id).toBe(resubmit.id);
    // Withdrawing is still the initiator's way out.
    expect((await act(t.alice, resubmit.id, 'withdraw')).status).toBe(200);
  });

  it('an impossible jump without a Reject edge follows the Failure edge; with neither the instance ends rejected', async () => {
    await expectEscape(['Failure', 'fallback', 'carol']);
    const id2 = await run(jumpDoc(key()));
    const res = await actOk(t.bob, (await myTask(t.bob, id2)).id, 'reject', { comment: 'no' });
    expect(res.instance.status).toBe('rejected');
  });

  it('an impossible jump follows the Reject edge', async () => {
    await expectEscape(['Reject', 'rework', 'erin']);
  });
});

describe('drafts and business keys', () => {
  /** s → u (bob's) → end, with `info` on the process (its form). */
  const deployOneTask = (k: string, info?: Record<string, unknown>) =>
    deploy(t.admin, doc(k, [node('s', 'startTask'), user('u', ['bob']), node('end', 'end')], wire('s>u u>end'), info));
  const daysForm = { form: { fields: [{ name: 'days', type: 'number', required: true }] } };
  const submitDraft = (id: string, token: string) => api(`${INSTANCES}/${id}/submit-draft`, { token, body: {} });

  it('a draft has no tasks, editable variables, and only its initiator submits it', async () => {
    const k = key();
    await deployOneTask(k, daysForm);
    const res = await startRequest(t.alice, { processKey: k, businessKey: `D-${k}`, variables: {}, draft: true });
    expect(res.status).toBe(201);
    const id = res.body.data.instanceId;
    expect(res.body.data.instance.status).toBe('draft');
    expect((await api(`/api/v1/workflow/tasks?instanceId=${id}`, { token: t.admin })).body.data.total).toBe(0);
    expect((await submitDraft(id, t.alice)).status).toBe(400);
    const set = await api(`${INSTANCES}/${id}/variables`, { token: t.alice, body: { variables: { days: 2 } } });
    expect(set.body.data).toEqual({ days: 2 });
    expect((await submitDraft(id, t.bob)).status).toBe(404);
    const submitted = await submitDraft(id, t.alice);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.status).toBe('active');
    await myTask(t.bob, id);
    expect((await submitDraft(id, t.alice)).status).toBe(409);
  });

  it('a business key in use by a running instance is 409; free again once it ended', async () => {
    const k = key();
    await deployOneTask(k);
    const id = await start(t.alice, k, {}, `BK-${k}`);
    const dup = await startRequest(t.carol, { processKey: k, businessKey: `BK-${k}`, variables: {} });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(40904);
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await start(t.alice, k, {}, `BK-${k}`);
  });

  it('variables are checked against the form', async () => {
    const k = key();
    await deployOneTask(k, daysForm);
    const bad = await startRequest(t.alice, { processKey: k, variables: { days: 'two' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('days');
    const missing = await startRequest(t.alice, { processKey: k, variables: {} });
    expect(missing.status).toBe(400);
    expect((await startRequest(t.alice, { processKey: 'nope', variables: {} })).status).toBe(404);
  });
});
