// The designer's server side (docs/definitions.md): live validation, simulation and version
// compare. None of them writes anything; simulation and an instance's upcoming steps agree.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { api, createDemoLikeTenant, createTenant, expectError, login } from '../helpers/api.js';
import { conn, edges, node, processDoc, testChain, userChain, users } from '../helpers/dsl.js';
import { deploy, example, instance, start } from '../helpers/flow.js';

const D = '/api/v1/workflow/process-definitions';

let tenantId: string;
let t: Record<string, string>;
let designer: string; // definition read + write
let nobody: string; // no permission
let db: any;

const count = async (table: string) =>
  Number((await db.query(`select count(*)::int as n from ${table} where tenant_id = $1`, [tenantId])).rows[0].n);
/** What the endpoints must leave as it was: definitions, instances, tasks, trail. */
const written = async () => ({
  definitions: await count('process_definitions'),
  instances: await count('instances'),
  tasks: await count('tasks'),
});

beforeAll(async () => {
  const demo = await createDemoLikeTenant('dz');
  tenantId = demo.tenantId;
  t = demo.tokens;
  for (const [id, roles] of [
    ['dana', ['designer']],
    ['nemo', []],
  ] as const) {
    const r = await api('/api/v1/users', { token: t.admin, body: { id, username: id, password: `pw-${id}`, roles } });
    expect(r.status).toBe(201);
  }
  designer = await login('dana', 'pw-dana', tenantId);
  nobody = await login('nemo', 'pw-nemo', tenantId);
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
});

/** start → route (amount > 100 → big) → approve (bob) → end; Default → end. */
const small = (key: string, cases = ['msg.amount > 100']) =>
  processDoc(
    testChain(key),
    [
      node('route', 'switch', { cases: cases.map((c) => ({ case: c, then: 'big' })) }, 'Route'),
      node('approve', 'userTask', users('bob'), 'Approve'),
    ],
    edges('start>route route>approve:big route>end:Default approve>end'),
  );

describe('POST /process-definitions/validate', () => {
  const validate = (body: unknown, token = designer) => api(`${D}/validate`, { token, body });

  it('answers valid for a document deploy accepts, older keys included, and writes nothing', async () => {
    const before = await written();
    for (const doc of [small('v_ok'), example('purchase-legacy-keys.json'), example('expense-claim.json')]) {
      const res = await validate({ dsl: doc });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: 0, data: { valid: true, problems: [] }, message: 'ok' });
    }
    expect(await written()).toEqual(before);
    expect((await api(`${D}/key/v_ok`, { token: designer })).status).toBe(404);
  });

  it('lists every problem with a code and params, exactly those deploy refuses with', async () => {
    const doc = small('v_bad', ['msg.amount >']) as any;
    doc.metadata.nodes.push(
      node('lost', 'userTask', { approver: { type: 'role' } }),
      node('calc', 'serviceTask', { functionName: 'noSuchFunction' }),
      node('odd', 'mcpTool'),
    );
    doc.metadata.nodes.find((n: any) => n.id === 'approve').configuration.candidateType = 'user';
    const before = await written();
    const res = await validate({ dsl: doc });
    expect(res.status).toBe(200);
    const { valid, problems } = res.body.data;
    expect(valid).toBe(false);
    expect(problems.map((p: any) => [p.nodeId, p.field, p.code])).toEqual(
      expect.arrayContaining([
        ['route', 'configuration.cases[0].case', 'condition.invalid'],
        ['lost', 'configuration.approver.roleIds', 'approver.idsRequired'],
        ['lost', 'connections', 'graph.unreachable'],
        ['calc', 'configuration.functionName', 'node.functionUnknown'],
        ['odd', 'type', 'node.typeUnsupported'],
        ['approve', 'configuration.candidateType', 'legacy.bothKeys'],
      ]),
    );
    const byCode = (code: string) => problems.find((p: any) => p.code === code);
    expect(byCode('approver.idsRequired').params).toEqual({ type: 'role', list: 'roleIds' });
    expect(byCode('node.functionUnknown').params).toEqual({ name: 'noSuchFunction' });
    expect(byCode('condition.invalid').params).toMatchObject({ expression: 'msg.amount >' });
    for (const p of problems)
      expect(Object.keys(p).sort()).toEqual(['code', 'field', 'message', 'nodeId', 'params', 'severity']);
    expect(new Set(problems.map((p: any) => p.severity))).toEqual(new Set(['error']));

    // Deploy answers as it always did, with the same problems.
    const deployed = await api(`${D}/deploy`, { token: designer, body: { dsl: doc } });
    expectError(deployed, 422, 42200);
    expect(deployed.body.message).toMatch(/^The process definition does not validate: /);
    expect(deployed.body.data.problems.map((p: any) => [p.nodeId, p.field, p.message])).toEqual(
      problems.map((p: any) => [p.nodeId, p.field, p.message]),
    );
    expect(await written()).toEqual(before);
  });

  it('a case on a variable nobody declares is a warning: valid stays true, in the caller’s language, and deploy accepts it', async () => {
    // The form declares amount; the case reads msg.amout (a typo) and nothing before the switch sets variables.
    const doc = small('v_warn', ['msg.amout > 100']) as any;
    doc.ruleChain.additionalInfo = { formType: 'design', form: { fields: [{ name: 'amount', type: 'number' }] } };
    const warning = {
      nodeId: 'route',
      field: 'configuration.cases[0].case',
      code: 'condition.unknownVariable',
      params: { variable: 'amout', suggestion: 'amount' },
      message: 'msg.amout is not a field of the process form, and no earlier step sets it — did you mean msg.amount?',
      severity: 'warning',
    };
    const res = await validate({ dsl: doc });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ valid: true, problems: [warning] });
    const zh = await api(`${D}/validate`, {
      token: designer,
      body: { dsl: doc },
      headers: { 'Accept-Language': 'zh-CN' },
    });
    expect(zh.body.data.problems).toEqual([
      { ...warning, message: 'msg.amout 不是流程表单的字段，之前也没有步骤设置它——是不是 msg.amount？' },
    ]);
    // An error next to it: valid is false, errors first, the warning still listed.
    const both = small('v_warn2', ['msg.amout > 100', 'msg.amount >']) as any;
    both.ruleChain.additionalInfo = doc.ruleChain.additionalInfo;
    const mixed = await validate({ dsl: both });
    expect(mixed.body.data.valid).toBe(false);
    expect(mixed.body.data.problems.map((p: any) => [p.code, p.severity])).toEqual([
      ['condition.invalid', 'error'],
      ['condition.unknownVariable', 'warning'],
    ]);
    // Deploy accepts the document with only the warning: older GFlow processes keep deploying.
    const deployed = await api(`${D}/deploy`, { token: designer, body: { dsl: doc } });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(201);
    expect(deployed.body.data.key).toBe('v_warn');
  });

  it('checks the limits and the stored form as deploy does', async () => {
    const big = await validate({ dsl: userChain(600, { id: 'v_big', name: 'v_big' }) });
    expect(big.status).toBe(200);
    expect(big.body.data.problems).toEqual([
      {
        nodeId: null,
        field: 'metadata.nodes',
        code: 'limit.nodes',
        params: { count: 602, max: 500 },
        message: 'has 602 nodes; at most 500 are allowed',
        severity: 'error',
      },
    ]);

    const noForm = small('v_form') as any;
    noForm.ruleChain.additionalInfo = { formType: 'system', formKey: 'no-such-form' };
    const res = await validate({ dsl: noForm });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.problems[0]).toEqual({
      nodeId: null,
      field: 'ruleChain.additionalInfo.formKey',
      code: 'process.formUnknown',
      params: { key: 'no-such-form' },
      message: 'unknown form "no-such-form"',
      severity: 'error',
    });
    expectError(await api(`${D}/deploy`, { token: designer, body: { dsl: noForm } }), 422, 42251);
  });

  it('a shape that is no document at all gets a problem, not an error', async () => {
    const res = await validate({ dsl: { metadata: { nodes: 'x' } } });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.problems.map((p: any) => p.code)).toEqual(
      expect.arrayContaining(['document.ruleChainRequired', 'document.nodesRequired']),
    );
  });

  it('refuses what deploy refuses before validating: no object, unknown fields, too large, no permission', async () => {
    for (const body of [{ dsl: 'text' }, { dsl: [] }, {}, { dsl: null }]) {
      const res = await validate(body);
      const deployed = await api(`${D}/deploy`, { token: designer, body });
      expect([res.status, res.body.code]).toEqual([deployed.status, deployed.body.code]);
      expect(res.status).toBe(400);
    }
    expectError(await validate({ dsl: small('v_x'), extra: 1 }), 400, 40003);
    const huge = { dsl: { ...small('v_huge'), padding: 'x'.repeat(1_100_000) } };
    expectError(await validate(huge), 413, 41300);
    expectError(await validate({ dsl: small('v_x') }, t.alice), 403, 40300); // read only
    expectError(await validate({ dsl: small('v_x') }, nobody), 403, 40300);
    expectError(await api(`${D}/validate`, { body: { dsl: small('v_x') } }), 401, 40100);
    expect((await validate({ dsl: small('v_x') }, t.admin)).status).toBe(200);
  });
});

describe('POST /process-definitions/simulate', () => {
  const simulate = (body: unknown, token = designer) => api(`${D}/simulate`, { token, body });
  let expenseId: string;

  beforeAll(async () => {
    expenseId = (await deploy(t.admin, example('expense-claim.json'))).id;
  });

  const stepIds = (data: any) => data.steps.map((s: any) => s.node.id);
  const step = (data: any, id: string) => data.steps.find((s: any) => s.node.id === id);

  it('walks the path a start would take with the real directory: approvers, their rule, the switch taken', async () => {
    const before = await written();
    const res = await simulate({ definitionId: expenseId, initiatorId: 'alice', variables: { amount: 4200 } });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ definitionId: expenseId, processKey: 'expense_claim', processVersion: 1 });
    expect(data.initiatorId).toBe('alice');
    expect(stepIds(data)).toEqual([
      'start',
      'manager',
      'split',
      'finance_check',
      'budget_owner',
      'merge',
      'size',
      'end',
    ]);
    expect(data.steps.every((s: any) => !s.undecided)).toBe(true);
    expect(step(data, 'start')).toMatchObject({
      node: { type: 'startTask', name: 'Claimant submits' },
      assignment: null,
    });

    // The manager rule: alice's manager bob, as a task's "why" would say it.
    expect(step(data, 'manager').assignment).toMatchObject({
      mode: 'ballots',
      approvers: [
        {
          userId: 'bob',
          displayName: expect.any(String),
          autoApproved: false,
          reason: { kind: 'manager', ids: ['alice'], level: 1, text: 'manager of alice (level 1)' },
        },
      ],
      fallback: null,
    });
    // A role pool: its members may claim.
    expect(step(data, 'finance_check').assignment).toMatchObject({
      mode: 'pool',
      candidates: { roleIds: ['finance'], deptIds: [], userIds: [] },
      reason: { kind: 'role', ids: ['finance'], count: 2 },
    });
    expect(step(data, 'finance_check').assignment.approvers.map((a: any) => a.userId)).toEqual(['frank', 'grace']);

    // The switch: its case and the value it had; Default taken.
    expect(step(data, 'size').decision).toEqual({
      taken: ['Default'],
      possible: ['Default'],
      open: false,
      cases: [{ caseIndex: 1, expression: 'msg.amount >= 10000', then: 'large', value: false, error: null, needs: [] }],
    });
    expect(await written()).toEqual(before);
  });

  it('a large claim goes to the directors; without the amount the vote is undecided and says why', async () => {
    const large = (await simulate({ definitionId: expenseId, initiatorId: 'alice', variables: { amount: 15000 } })).body
      .data;
    expect(step(large, 'size').decision.taken).toEqual(['large']);
    expect(step(large, 'directors').assignment.approvers.map((a: any) => [a.userId, a.reason.kind])).toEqual([
      ['carol', 'user'],
      ['dave', 'user'],
      ['frank', 'user'],
    ]);

    const open = (await simulate({ definitionId: expenseId, initiatorId: 'alice' })).body.data;
    expect(step(open, 'directors')).toMatchObject({
      undecided: true,
      undecidedBy: [{ nodeId: 'size', variable: 'amount', setBy: null }],
    });
    expect(step(open, 'size').decision).toMatchObject({ open: true, taken: [], possible: ['large', 'Default'] });
    expect(step(open, 'manager').undecided).toBe(false);
  });

  it('simulates an undeployed document, the caller by default, and names what a service function decides', async () => {
    const doc = processDoc(
      testChain('sim_doc'),
      [
        node('calc', 'serviceTask', { functionName: 'setVariables', param: '${msg.input}' }),
        node('route', 'switch', { cases: [{ case: 'msg.total > 10', then: 'big' }] }),
        node('mgr', 'userTask', { approver: { type: 'manager' } }),
        node('self', 'userTask', { approver: { type: 'initiatorSelf' } }),
      ],
      edges('start>calc calc>route route>mgr:big route>self:Default mgr>end self>end'),
    );
    const before = await written();
    const res = await simulate({ dsl: doc, variables: { total: 50 } }, t.admin);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      definitionId: null,
      processKey: 'sim_doc',
      processVersion: null,
      initiatorId: 'admin',
    });
    // total is set now, but calc runs first and may write it: both branches stay open.
    expect(step(data, 'mgr')).toMatchObject({
      undecided: true,
      undecidedBy: [{ nodeId: 'route', variable: 'total', setBy: 'calc' }],
    });
    expect(step(data, 'route').decision.cases[0]).toMatchObject({ value: null, needs: [{ setBy: 'calc' }] });
    // admin has no manager: the rule finds nobody and the fallback applies.
    expect(step(data, 'mgr').assignment).toMatchObject({
      mode: 'fallback',
      fallback: { policy: expect.any(String), problem: 'admin has no manager at level 1' },
      reason: { kind: 'fallback' },
    });
    expect(step(data, 'self').assignment.approvers).toEqual([
      expect.objectContaining({ userId: 'admin', reason: expect.objectContaining({ kind: 'initiatorSelf' }) }),
    ]);
    expect(await written()).toEqual(before);

    const asCarol = (await simulate({ dsl: doc, initiatorId: 'carol', variables: {} })).body.data;
    expect(step(asCarol, 'mgr').assignment.approvers.map((a: any) => a.userId)).toEqual(['dave']);
  });

  it("agrees with an instance's upcoming steps: a claim of 4,200 leaves the directors out", async () => {
    const id = await start(t.alice, 'expense_claim', { amount: 4200 });
    const inst = await instance(t.alice, id);
    expect(inst.currentNodes).toEqual(['manager']);
    expect(inst.upcoming.map((u: any) => u.activityId)).toEqual(['finance_check', 'budget_owner']);

    const sim = (await simulate({ definitionId: expenseId, initiatorId: 'alice', variables: { amount: 4200 } })).body
      .data;
    const ahead = sim.steps.filter((s: any) => s.node.type === 'userTask' && !inst.currentNodes.includes(s.node.id));
    expect(
      ahead.map((s: any) => ({
        activityId: s.node.id,
        approvers: s.assignment.mode === 'pool' ? [] : s.assignment.approvers.map((a: any) => a.userId),
        candidates: { roleIds: s.assignment.candidates.roleIds, deptIds: s.assignment.candidates.deptIds },
        undecided: s.undecided,
      })),
    ).toEqual(
      inst.upcoming.map(({ activityId, approvers, candidates, undecided }: any) => ({
        activityId,
        approvers,
        candidates,
        undecided,
      })),
    );
  });

  it('refuses both or neither of dsl and definitionId, unknown ids, bad documents and unknown initiators', async () => {
    const before = await written();
    const both = await simulate({ dsl: small('s_x'), definitionId: expenseId });
    expectError(both, 400, 40001);
    expect(both.body.message).toContain('Send either dsl or definitionId');
    expectError(await simulate({ initiatorId: 'alice' }), 400, 40001);
    expectError(await simulate({ definitionId: expenseId, extra: true }), 400, 40003);
    expectError(await simulate({ dsl: 'text' }), 400, 40001);
    expectError(await simulate({ definitionId: expenseId, variables: 'x' }), 400, 40001);
    expectError(await simulate({ definitionId: 'no-such-definition' }), 404, 40400);

    const other = await createTenant('dzo');
    const theirs = await deploy(other.adminToken, small('s_theirs'));
    expectError(await simulate({ definitionId: theirs.id }), 404, 40400);

    const bad = await simulate({ dsl: small('s_bad', ['msg.amount >']) });
    expectError(bad, 422, 42200);
    expect(bad.body.data.problems[0]).toMatchObject({ nodeId: 'route', code: 'condition.invalid' });

    const unknown = await simulate({ definitionId: expenseId, initiatorId: 'zed' });
    expectError(unknown, 404, 40410);
    expect(unknown.body.message).toBe('initiatorId: no user zed in this tenant');
    expect(unknown.body.data.fields).toEqual([{ path: 'initiatorId', message: 'no user zed in this tenant' }]);
    expectError(await simulate({ definitionId: expenseId, initiatorId: 'admin' }, other.adminToken), 404, 40400);

    // The form's types hold as at a draft start.
    expectError(await simulate({ definitionId: expenseId, variables: { amount: 'lots' } }), 400, 40001);
    expectError(await simulate({ definitionId: expenseId }, t.alice), 403, 40300);
    expectError(await simulate({ definitionId: expenseId }, nobody), 403, 40300);
    expect(await written()).toEqual(before);
  });

  it('simulates a draft through the deploy validator', async () => {
    const draft = await api(D, { token: designer, body: { dsl: small('s_draft') } });
    expect(draft.status).toBe(201);
    const res = await simulate({ definitionId: draft.body.data.id, initiatorId: 'alice', variables: { amount: 500 } });
    expect(res.status).toBe(200);
    expect(stepIds(res.body.data)).toEqual(['start', 'route', 'approve', 'end']);
    expect(res.body.data.processVersion).toBeNull();

    const broken = await api(D, { token: designer, body: { dsl: small('s_broken', ['msg.amount >']) } });
    expectError(await simulate({ definitionId: broken.body.data.id }), 422, 42200);
  });
});

describe('GET /process-definitions/{id}/compare/{otherId}', () => {
  const compare = (a: string, b: string, token = designer) => api(`${D}/${a}/compare/${b}`, { token });
  let v1: any;
  let v2: any;

  beforeAll(async () => {
    v1 = await deploy(t.admin, small('c_trip'));
    const next = small('c_trip') as any;
    const approve = next.metadata.nodes.find((n: any) => n.id === 'approve');
    approve.name = 'Manager approves';
    approve.configuration.approver.userIds = ['bob', 'carol'];
    next.metadata.nodes.find((n: any) => n.id === 'route').configuration.cases[0].case = 'msg.amount > 500';
    next.metadata.nodes.push(node('copy', 'ccTask', { ccUserIds: ['erin'] }, 'Copy HR'));
    next.metadata.connections = next.metadata.connections
      .filter((c: any) => !(c.fromId === 'approve' && c.toId === 'end'))
      .concat([conn('approve', 'copy'), conn('copy', 'end')]);
    v2 = await deploy(t.admin, next);
  });

  it('answers the nodes added, removed and changed (dotted paths, before/after) and the connections', async () => {
    const res = await compare(v1.id, v2.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      from: { id: v1.id, key: 'c_trip', name: 'Process c_trip', version: 1, status: 'retired' },
      to: { id: v2.id, key: 'c_trip', name: 'Process c_trip', version: 2, status: 'active' },
      added: [{ id: 'copy', type: 'ccTask', name: 'Copy HR' }],
      removed: [],
      changed: [
        {
          id: 'route',
          type: 'switch',
          name: 'Route',
          changes: [{ path: 'configuration.cases[0].case', before: 'msg.amount > 100', after: 'msg.amount > 500' }],
        },
        {
          id: 'approve',
          type: 'userTask',
          name: 'Manager approves',
          changes: [
            { path: 'configuration.approver.userIds', before: ['bob'], after: ['bob', 'carol'] },
            { path: 'name', before: 'Approve', after: 'Manager approves' },
          ],
        },
      ],
      connections: {
        added: [
          { fromId: 'approve', toId: 'copy', type: 'Success' },
          { fromId: 'copy', toId: 'end', type: 'Success' },
        ],
        removed: [{ fromId: 'approve', toId: 'end', type: 'Success' }],
      },
      process: [],
    });
    // The other way round: what was added is removed.
    const back = (await compare(v2.id, v1.id, t.alice)).body.data;
    expect(back.removed).toEqual([{ id: 'copy', type: 'ccTask', name: 'Copy HR' }]);
    expect(back.connections.added).toEqual([{ fromId: 'approve', toId: 'end', type: 'Success' }]);
  });

  it('compares a draft written with older keys against its published version as publishing would read it', async () => {
    const legacy = small('c_trip') as any;
    const approve = legacy.metadata.nodes.find((n: any) => n.id === 'approve');
    approve.configuration = { candidateType: 'user', candidateConfig: { userIds: ['bob'] } };
    const draft = await api(D, { token: designer, body: { dsl: legacy } });
    expect(draft.status).toBe(201);
    const res = await compare(v1.id, draft.body.data.id);
    expect(res.status).toBe(200);
    expect(res.body.data.changed).toEqual([]);
    expect(res.body.data.to).toMatchObject({ status: 'draft', version: null });
  });

  it('answers 404 for unknown ids and ids of another tenant, 403 without the read permission', async () => {
    expectError(await compare(v1.id, 'nope'), 404, 40400);
    expectError(await compare('nope', v1.id), 404, 40400);
    const other = await createTenant('dzc');
    const theirs = await deploy(other.adminToken, small('c_theirs'));
    expectError(await compare(v1.id, theirs.id), 404, 40400);
    expectError(await compare(theirs.id, theirs.id), 404, 40400);
    expectError(await compare(v1.id, v2.id, nobody), 403, 40300);
    expectError(await api(`${D}/${v1.id}/compare/${v2.id}`), 401, 40100);
  });
});
