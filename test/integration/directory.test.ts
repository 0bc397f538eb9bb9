import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, login } from '../helpers/api.js';

describe('directory', () => {
  let admin: string;
  let tenantId: string;
  beforeAll(async () => {
    ({ adminToken: admin, tenantId } = await createTenant('dir'));
  });

  it('creates, reads, updates and deletes departments, roles and users', async () => {
    const role = await api('/api/v1/roles', {
      token: admin,
      body: { code: 'clerk', name: 'Clerk', permissions: ['approval:operate'] },
    });
    expect(role.status).toBe(201);
    expect(role.body.data).toEqual({ code: 'clerk', name: 'Clerk', permissions: ['approval:operate'] });

    const dept = await api('/api/v1/departments', { token: admin, body: { id: 'ops', name: 'Operations' } });
    expect(dept.status).toBe(201);
    const sub = await api('/api/v1/departments', { token: admin, body: { name: 'Night shift', parentId: 'ops' } });
    expect(sub.status).toBe(201);
    expect(sub.body.data.id).toMatch(/[0-9a-f-]{36}/);

    const boss = await api('/api/v1/users', {
      token: admin,
      body: { id: 'boss', username: 'boss', password: 'pw-boss', deptId: 'ops', roles: ['clerk'] },
    });
    expect(boss.status).toBe(201);
    expect(boss.body.data).toMatchObject({
      id: 'boss',
      username: 'boss',
      displayName: 'boss',
      deptId: 'ops',
      managerId: null,
      roles: ['clerk'],
      active: true,
    });
    expect(boss.body.data.password).toBeUndefined();
    expect(boss.body.data.passwordHash).toBeUndefined();

    const worker = await api('/api/v1/users', {
      token: admin,
      body: { username: 'worker', password: 'pw-worker', managerId: 'boss' },
    });
    expect(worker.status).toBe(201);
    const workerId = worker.body.data.id;

    const patched = await api(`/api/v1/users/${workerId}`, {
      method: 'PATCH',
      token: admin,
      body: { displayName: 'W. Orker', password: 'new-pass' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.displayName).toBe('W. Orker');
    await login('worker', 'new-pass', tenantId);

    const leader = await api('/api/v1/departments/ops', { method: 'PATCH', token: admin, body: { leaderId: 'boss' } });
    expect(leader.body.data.leaderId).toBe('boss');

    const list = await api('/api/v1/users?deptId=ops', { token: admin });
    expect(list.body.data.items.map((u: any) => u.id)).toEqual(['boss']);

    expect((await api('/api/v1/roles/clerk', { method: 'DELETE', token: admin })).status).toBe(409);
    expect((await api('/api/v1/departments/ops', { method: 'DELETE', token: admin })).status).toBe(409);
    expect((await api(`/api/v1/users/${workerId}`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await api(`/api/v1/users/${workerId}`, { token: admin })).status).toBe(404);
  });

  it('refuses references to missing objects and duplicates', async () => {
    const bad = await api('/api/v1/users', {
      token: admin,
      body: { username: 'x', password: 'pw-xx', deptId: 'nowhere', roles: ['ghost'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('deptId');
    expect(bad.body.message).toContain('ghost');
    await api('/api/v1/roles', { token: admin, body: { code: 'dup' } });
    expect((await api('/api/v1/roles', { token: admin, body: { code: 'dup' } })).status).toBe(409);
    const cycle = await api('/api/v1/departments', { token: admin, body: { id: 'a1', name: 'A' } });
    expect(cycle.status).toBe(201);
    await api('/api/v1/departments', { token: admin, body: { id: 'a2', name: 'B', parentId: 'a1' } });
    expect(
      (await api('/api/v1/departments/a1', { method: 'PATCH', token: admin, body: { parentId: 'a2' } })).status,
    ).toBe(400);
  });

  it('needs system:directory:manage', async () => {
    await api('/api/v1/roles', { token: admin, body: { code: 'plain', permissions: ['approval:operate'] } });
    await api('/api/v1/roles', { token: admin, body: { code: 'hr-admin', permissions: ['system:directory:manage'] } });
    await api('/api/v1/users', {
      token: admin,
      body: { id: 'pat', username: 'pat', password: 'pw-pat', roles: ['plain'] },
    });
    await api('/api/v1/users', {
      token: admin,
      body: { id: 'hr', username: 'hr', password: 'pw-hr', roles: ['hr-admin'] },
    });
    const pat = await login('pat', 'pw-pat', tenantId);
    const hr = await login('hr', 'pw-hr', tenantId);
    for (const [method, path, body] of [
      ['GET', '/api/v1/users', undefined],
      ['POST', '/api/v1/users', { username: 'z', password: 'pw-zz' }],
      ['PATCH', '/api/v1/users/pat', { displayName: 'P' }],
      ['DELETE', '/api/v1/users/hr', undefined],
      ['GET', '/api/v1/departments', undefined],
      ['POST', '/api/v1/roles', { code: 'r9' }],
    ] as const) {
      const res = await api(path, { method, token: pat, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe(40300);
    }
    expect((await api('/api/v1/users', { token: hr })).status).toBe(200);
    expect((await api('/api/v1/users', { token: hr, body: { username: 'z', password: 'pw-zz' } })).status).toBe(201);
  });

  describe('a tenant keeps an administrator', () => {
    let t: string;
    let keeper: string;
    let self: string;
    const user = async (id: string) => (await api(`/api/v1/users/${id}`, { token: keeper })).body.data;
    const refused = (res: { status: number; body: any }, code: number) => {
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.code).toBe(code);
    };

    beforeAll(async () => {
      let tenant: string;
      ({ adminToken: self, tenantId: tenant } = await createTenant('last'));
      t = tenant;
      // keeper manages the directory but is no administrator.
      await api('/api/v1/roles', { token: self, body: { code: 'keeper', permissions: ['system:directory:manage'] } });
      await api('/api/v1/users', {
        token: self,
        body: { id: 'keeper', username: 'keeper', password: 'pw-keeper', roles: ['keeper'] },
      });
      keeper = await login('keeper', 'pw-keeper', t);
    });

    it('nobody deletes or deactivates themselves', async () => {
      refused(await api('/api/v1/users/admin', { method: 'DELETE', token: self }), 40900);
      refused(await api('/api/v1/users/admin', { method: 'PATCH', token: self, body: { active: false } }), 40900);
      refused(await api('/api/v1/users/keeper', { method: 'DELETE', token: keeper }), 40900);
      refused(await api('/api/v1/users/keeper', { method: 'PATCH', token: keeper, body: { active: false } }), 40900);
      expect(await user('admin')).toMatchObject({ active: true, roles: ['admin'] });
      expect((await user('keeper')).active).toBe(true);
    });

    it('the last active holder of * cannot be deleted, deactivated or lose the role, nor the role its *', async () => {
      refused(await api('/api/v1/users/admin', { method: 'DELETE', token: keeper }), 40908);
      refused(await api('/api/v1/users/admin', { method: 'PATCH', token: keeper, body: { active: false } }), 40908);
      // Refused as a whole: the display name in the same patch is not written either.
      refused(
        await api('/api/v1/users/admin', {
          method: 'PATCH',
          token: keeper,
          body: { roles: ['keeper'], displayName: 'Demoted' },
        }),
        40908,
      );
      refused(
        await api('/api/v1/roles/admin', {
          method: 'PATCH',
          token: keeper,
          body: { permissions: ['system:directory:manage'] },
        }),
        40908,
      );
      expect((await api('/api/v1/roles/admin', { method: 'DELETE', token: keeper })).status).toBe(409);
      expect(await user('admin')).toMatchObject({ active: true, roles: ['admin'], displayName: 'admin' });
      expect((await api('/api/v1/roles/admin', { token: keeper })).body.data.permissions).toEqual(['*']);
      // Other changes to the last admin still work.
      expect(
        (await api('/api/v1/users/admin', { method: 'PATCH', token: keeper, body: { displayName: 'Boss' } })).status,
      ).toBe(200);
    });

    it('with workflow:admin held by someone else, the * holder may go; the new last admin is protected in turn', async () => {
      await api('/api/v1/roles', { token: self, body: { code: 'wf-admin', permissions: ['workflow:admin'] } });
      await api('/api/v1/users', {
        token: self,
        body: { id: 'second', username: 'second', password: 'pw-second', roles: ['wf-admin'] },
      });
      // An inactive holder does not count.
      await api('/api/v1/users', {
        token: self,
        body: { id: 'dormant', username: 'dormant', password: 'pw-dormant', roles: ['admin'], active: false },
      });
      const demote = await api('/api/v1/users/admin', { method: 'PATCH', token: keeper, body: { roles: ['keeper'] } });
      expect(demote.status, JSON.stringify(demote.body)).toBe(200);
      refused(
        await api('/api/v1/roles/wf-admin', {
          method: 'PATCH',
          token: keeper,
          body: { permissions: ['approval:operate'] },
        }),
        40908,
      );
      refused(await api('/api/v1/users/second', { method: 'PATCH', token: keeper, body: { active: false } }), 40908);
      refused(await api('/api/v1/users/second', { method: 'DELETE', token: keeper }), 40908);
      expect(await user('second')).toMatchObject({ active: true, roles: ['wf-admin'] });
      expect((await api('/api/v1/roles/wf-admin', { token: keeper })).body.data.permissions).toEqual([
        'workflow:admin',
      ]);
      // Waking the dormant * holder makes room again.
      expect(
        (await api('/api/v1/users/dormant', { method: 'PATCH', token: keeper, body: { active: true } })).status,
      ).toBe(200);
      expect((await api('/api/v1/users/second', { method: 'DELETE', token: keeper })).status).toBe(200);
    });
  });
});
