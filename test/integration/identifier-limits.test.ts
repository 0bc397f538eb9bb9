// Identifiers that reach Temporal (search attributes, workflow ids, history), URLs and the read
// model have limits that Temporal accepts, checked at the edge: each at its limit works end to
// end, one past it is a clear 4xx, and nothing is stored. Before, a 9,000-character process key
// deployed (201) and every start of it answered 500 from Temporal's search-attribute size limit.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, create, createDemoLikeTenant, login, systemAdmin } from '../helpers/api.js';
import { actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';

let t: Record<string, string>;

/** start → one approval by bob → end, with the given key and node ids. */
function process(key: string, ids = { start: 's', approve: 'a', end: 'e' }, info: Record<string, unknown> = {}) {
  return {
    ruleChain: { id: key, name: 'Limits', root: true, additionalInfo: { category: 'Test', ...info } },
    metadata: {
      firstNodeIndex: 0,
      nodes: [
        { id: ids.start, type: 'startTask', name: 'Start' },
        {
          id: ids.approve,
          type: 'userTask',
          name: 'Approve',
          configuration: { approver: { type: 'user', userIds: ['bob'] } },
        },
        { id: ids.end, type: 'end', name: 'End' },
      ],
      connections: [
        { fromId: ids.start, toId: ids.approve, type: 'Success' },
        { fromId: ids.approve, toId: ids.end, type: 'Success' },
      ],
    },
  };
}

const deployRes = (dsl: unknown, token = t.admin) =>
  api('/api/v1/workflow/process-definitions/deploy', { token, body: { dsl } });

async function versionsOf(key: string) {
  return api(`/api/v1/workflow/process-definitions/key/${encodeURIComponent(key)}/versions`, { token: t.admin });
}

/** Starts `key` as alice, approves as bob, and waits for the instance to complete. */
async function runThrough(key: string, token = t.alice, approver = t.bob) {
  const id = await start(token, key, {}, `limits-${Date.now()}`);
  const task = await myTask(approver, id);
  await actOk(approver, task.id, 'approve');
  await eventually(
    () => instance(token, id),
    (i) => i.status === 'completed',
  );
  return id;
}

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('lim'));
});

describe('identifier limits', () => {
  it('a process key of 200 characters (3 bytes each) deploys and runs; 201 or 9,000 characters are 422 with nothing stored', async () => {
    const atLimit = '审'.repeat(199) + 'k';
    await deploy(t.admin, process(atLimit));
    await runThrough(atLimit);
    for (const tooLong of ['k'.repeat(201), 'k'.repeat(9_000)]) {
      const res = await deployRes(process(tooLong));
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(422);
      expect(res.body.code).toBe(42200);
      expect(JSON.stringify(res.body.data)).toContain('ruleChain.id');
      expect(res.body.message).toContain('at most 200 characters');
      // Nothing stored under it; a key past 1000 characters cannot even be asked for (a path
      // segment's limit, docs/http.md#limits): 400.
      expect((await versionsOf(tooLong)).status).toBe(tooLong.length > 1000 ? 400 : 404);
    }
    // The same rule answers the designer's validation.
    const checked = await api('/api/v1/workflow/process-definitions/validate', {
      token: t.admin,
      body: { dsl: process('k'.repeat(201)) },
    });
    expect(checked.status).toBe(200);
    expect(checked.body.data.valid).toBe(false);
    expect(checked.body.data.problems).toContainEqual(
      expect.objectContaining({ field: 'ruleChain.id', code: 'value.tooLong', params: { max: 200 } }),
    );
  });

  it('node ids of 200 characters deploy and run; 201 is 422 naming the node', async () => {
    const long = (c: string) => c.repeat(200);
    await deploy(t.admin, process('node-ids-at-limit', { start: long('s'), approve: long('节'), end: long('e') }));
    await runThrough('node-ids-at-limit');
    const res = await deployRes(process('node-ids-past-limit', { start: 's', approve: 'a'.repeat(201), end: 'e' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('at most 200 characters');
    expect(JSON.stringify(res.body.data)).toContain('a'.repeat(201));
    expect((await versionsOf('node-ids-past-limit')).status).toBe(404);
  });

  it('a stored form key of 100 characters is used by a process that runs; 101 is 400', async () => {
    const key = 'f'.repeat(100);
    const form = await create(t.admin, '/api/v1/forms', {
      key,
      name: 'Limit form',
      schema: { fields: [{ name: 'note', type: 'text', label: 'Note' }] },
    });
    expect((await api(`/api/v1/forms/${form.id}/publish`, { token: t.admin, body: {} })).status).toBe(200);
    await deploy(t.admin, process('form-key-at-limit', undefined, { formType: 'system', formKey: key }));
    await runThrough('form-key-at-limit');
    const past = await api('/api/v1/forms', {
      token: t.admin,
      body: { key: 'f'.repeat(101), name: 'x', schema: { fields: [] } },
    });
    expect(past.status).toBe(400);
  });

  it('a service function name of 200 characters registers and deploys; 201 is 400', async () => {
    const name = `Fn.${'n'.repeat(197)}`;
    await create(t.admin, '/api/v1/service-functions', { name, kind: 'activity', taskQueue: 'q', activityType: 'a' });
    const dsl: any = process('function-name-at-limit');
    dsl.metadata.nodes.splice(1, 0, {
      id: 'fn',
      type: 'serviceTask',
      name: 'Fn',
      configuration: { functionName: name },
    });
    dsl.metadata.connections = [
      { fromId: 's', toId: 'fn', type: 'Success' },
      { fromId: 'fn', toId: 'a', type: 'Success' },
      { fromId: 'a', toId: 'e', type: 'Success' },
    ];
    await deploy(t.admin, dsl);
    const past = await api('/api/v1/service-functions', {
      token: t.admin,
      body: { name: `Fn.${'n'.repeat(198)}`, kind: 'activity', taskQueue: 'q', activityType: 'a' },
    });
    expect(past.status).toBe(400);
  });

  it('a tenant id of 100 characters runs a process (its workflow ids and search attributes); 101 is 400', async () => {
    const system = await systemAdmin();
    const id = `t${Date.now().toString(36)}`.padEnd(100, 'x');
    await create(system, '/api/v1/tenants', {
      id,
      name: 'Long id',
      admin: { username: 'admin', password: 'secret-admin' },
    });
    const admin = await login('admin', 'secret-admin', id);
    await create(admin, '/api/v1/users', { id: 'bob', username: 'bob', password: 'pw-bob', roles: ['admin'] });
    await deploy(admin, process('long-tenant'));
    await runThrough('long-tenant', admin, await login('bob', 'pw-bob', id));
    const past = await api('/api/v1/tenants', {
      token: system,
      body: { id: id + 'y', name: 'x', admin: { username: 'admin', password: 'secret-admin' } },
    });
    expect(past.status).toBe(400);
  });
});
