// Conflicting actions that arrive together (docs/contract.md, docs/http.md): N = 20 concurrent claims, approves
// and transfers on one task, 20 rounds each. Exactly one request wins with a 200 that names the
// winner; every other request gets 409 (never 500, never 503); the trail, the read model and
// /detail agree.
//
// Cost on a busy 2-core machine: each race starts its 20 instances up front, the three races run
// concurrently (different instances), and a round reads only what it checks: the winner's 200
// already carries the task row and instance from the read model, so it is not read again; the
// trail is read once (through /detail for claims, the winner's view). Timeouts allow for a very
// loaded machine (a round whose Updates the server aborts or throttles waits for their re-sends).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, create, createTenant, login } from '../helpers/api.js';
import { act, deploy, instance, oneStep, start } from '../helpers/flow.js';

const N = 20;
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 20);
/** Per race (20 rounds of 20 requests); measured 128-240 s on a very loaded 2-core machine. */
const RACE_TIMEOUT_MS = 600_000;

/** Starts `count` instances a few at a time (setup, not part of any race). */
async function startMany(token: string, key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 5)
    ids.push(...(await Promise.all(Array.from({ length: Math.min(5, count - i) }, () => start(token, key)))));
  return ids;
}

describe.concurrent('races on one task', () => {
  let admin: string;
  const tokens: Record<string, string> = {};
  const members = Array.from({ length: N }, (_, i) => `racer${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    const tenant = await createTenant('race');
    admin = tenant.adminToken;
    const post = (path: string, body: unknown) => create(admin, path, body);
    await post('/api/v1/roles', {
      code: 'racer',
      permissions: ['workflow:instance:start', 'approval:create', 'approval:operate', 'workflow:definition:read'],
    });
    await post('/api/v1/departments', { id: 'track', name: 'Track' });
    await post('/api/v1/users', {
      id: 'starter',
      username: 'starter',
      password: 'pw-starter',
      deptId: 'track',
      roles: ['racer'],
    });
    await post('/api/v1/users', {
      id: 'boss',
      username: 'boss',
      password: 'pw-boss',
      deptId: 'track',
      roles: ['racer'],
    });
    await Promise.all(
      members.map((id) =>
        post('/api/v1/users', { id, username: id, password: `pw-${id}`, deptId: 'track', roles: ['racer'] }),
      ),
    );
    for (const id of ['starter', 'boss', ...members]) tokens[id] = await login(id, `pw-${id}`, tenant.tenantId);
    // A role approver in single mode: one pending pool task the 20 racers claim.
    await deploy(
      admin,
      oneStep('race_pool', { approver: { type: 'role', roleIds: ['racer'] }, approveMode: 'single' }),
    );
    // A single assignee (boss) for approve and transfer races.
    await deploy(admin, oneStep('race_single', { approver: { type: 'user', userIds: ['boss'] } }));
  }, 240_000);

  const openTask = async (instanceId: string) => {
    const r = await api(`/api/v1/workflow/tasks?instanceId=${instanceId}&pageSize=50`, { token: admin });
    expect(r.status).toBe(200);
    const open = (r.body.data.items as any[]).filter((t) => ['pending', 'active'].includes(t.status));
    expect(open).toHaveLength(1);
    return open[0];
  };

  /** One round: every request at once; answers split into the winner and the losers. */
  async function race(requests: Array<() => Promise<{ status: number; body: any }>>, label: string) {
    const results = await Promise.all(requests.map((f) => f()));
    const statuses = results.map((r) => r.status);
    const winners = results.map((r, i) => ({ r, i })).filter((x) => x.r.status === 200);
    const unexpected = results.filter((r) => r.status !== 200 && r.status !== 409);
    expect(
      unexpected.map((r) => `${r.status} ${JSON.stringify(r.body)}`),
      `${label}: only 200 and 409`,
    ).toEqual([]);
    expect(winners.length, `${label}: exactly one 200 (${statuses.join(',')})`).toBe(1);
    for (const r of results)
      if (r.status === 409) expect(r.body.code, JSON.stringify(r.body)).toBeGreaterThanOrEqual(40900);
    return { winner: winners[0].i, body: winners[0].r.body.data };
  }

  it(
    `${N} pool members claim one task at once, ${ROUNDS} rounds: the 200 goes to the one who won`,
    async () => {
      const ids = await startMany(tokens.starter, 'race_pool', ROUNDS);
      for (let round = 0; round < ROUNDS; round++) {
        const id = ids[round];
        const task = await openTask(id);
        expect(task).toMatchObject({ status: 'pending', assignee: null });
        const { winner, body } = await race(
          members.map((u) => () => act(tokens[u], task.id, 'claim')),
          `claim round ${round}`,
        );
        const who = members[winner];
        // the 200 is the read model's task row, read after the winning Update completed
        expect(body.task, `claim round ${round}: the 200 names its caller`).toMatchObject({
          id: task.id,
          status: 'active',
          assignee: who,
        });
        const detail = await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: tokens[who] });
        expect(detail.status).toBe(200);
        expect((detail.body.data.trail as any[]).filter((e) => e.type === 'claim').map((e) => e.userId)).toEqual([who]);
      }
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `the assignee approves ${N} times at once, ${ROUNDS} rounds: one approval`,
    async () => {
      const ids = await startMany(tokens.starter, 'race_single', ROUNDS);
      for (let round = 0; round < ROUNDS; round++) {
        const id = ids[round];
        const task = await openTask(id);
        const { body } = await race(
          Array.from({ length: N }, () => () => act(tokens.boss, task.id, 'approve', { comment: 'ok' })),
          `approve round ${round}`,
        );
        expect(body.task).toMatchObject({ id: task.id, status: 'completed', result: 'approved', assignee: 'boss' });
        expect(body.instance).toMatchObject({ id, status: 'completed' });
        const detail = await instance(admin, id);
        expect(detail.status).toBe('completed');
        expect((detail.trail as any[]).filter((e) => e.type === 'approve')).toHaveLength(1);
      }
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `the assignee transfers to ${N} people at once, ${ROUNDS} rounds: the 200 names the one it went to`,
    async () => {
      const ids = await startMany(tokens.starter, 'race_single', ROUNDS);
      for (let round = 0; round < ROUNDS; round++) {
        const id = ids[round];
        const task = await openTask(id);
        const { winner, body } = await race(
          members.map((to) => () => act(tokens.boss, task.id, 'transfer', { assigneeUserId: to, reason: 'race' })),
          `transfer round ${round}`,
        );
        const to = members[winner];
        expect(body.task).toMatchObject({ id: task.id, status: 'active', assignee: to });
        const transfers = ((await instance(admin, id)).trail as any[]).filter((e) => e.type === 'transfer');
        expect(transfers).toHaveLength(1);
        expect(transfers[0].detail).toMatchObject({ from: 'boss', to });
      }
    },
    RACE_TIMEOUT_MS,
  );
});
