import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, login } from '../helpers/api.js';

/** A role with these permissions (setup: the answer is not checked). */
const addRole = (token: string, code: string, permissions: string[]) =>
  api('/api/v1/roles', { token, body: { code, permissions } });
/** A user named by its id, password `pw-<id>`, with these roles (setup: the answer is not checked). */
const addUser = (token: string, id: string, roles: string[], extra: Record<string, unknown> = {}) =>
  api('/api/v1/users', { token, body: { id, username: id, password: `pw-${id}`, roles, ...extra } });

const patch = (token: string, path: string, body: unknown) => api(path, { method: 'PATCH', token, body });
const remove = (token: string, path: string) => api(path, { method: 'DELETE', token });

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

    const patched = await patch(admin, `/api/v1/users/${workerId}`, { displayName: 'W. Orker', password: 'new-pass' });
    expect(patched.status).toBe(200);
    expect(patched.body.data.displayName).toBe('W. Orker');
    await login('worker', 'new-pass', tenantId);

    const leader = await patch(admin, '/api/v1/departments/ops', { leaderId: 'boss' });
    expect(leader.body.data.leaderId).toBe('boss');

    const list = await api('/api/v1/users?deptId=ops', { token: admin });
    expect(list.body.data.items.map((u: any) => u.id)).toEqual(['boss']);

    expect((await remove(admin, '/api/v1/roles/clerk')).status).toBe(409);
    expect((await remove(admin, '/api/v1/departments/ops')).status).toBe(409);
    expect((await remove(admin, `/api/v1/users/${workerId}`)).status).toBe(200);
    expect((await api(`/api/v1/users/${workerId}`, { token: admin })).status).toBe(404);
  });

  it('refuses references to missing objects and duplicates', async () => {
    const bad = await api('/api/v1/users', {
      token: admin,
      body: { username: 'x', password: 'pw-xx', deptId: 'nowhere', roles: ['ghost'] },
    });
    // Well formed, but naming what the tenant does not have: 404 REFERENCE_NOT_FOUND naming each field.
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe(40410);
    expect(bad.body.data.fields).toEqual([
      { path: 'deptId', message: 'no department nowhere' },
      { path: 'roles.0', message: 'no role ghost' },
    ]);
    await api('/api/v1/roles', { token: admin, body: { code: 'dup' } });
    expect((await api('/api/v1/roles', { token: admin, body: { code: 'dup' } })).status).toBe(409);
    const cycle = await api('/api/v1/departments', { token: admin, body: { id: 'a1', name: 'A' } });
    expect(cycle.status).toBe(201);
    await api('/api/v1/departments', { token: admin, body: { id: 'a2', name: 'B', parentId: 'a1' } });
    // A cycle is a relation the tree cannot hold: 409.
    expect((await patch(admin, '/api/v1/departments/a1', { parentId: 'a2' })).status).toBe(409);
  });

  it('needs system:directory:manage', async () => {
    await addRole(admin, 'plain', ['approval:operate']);
    await addRole(admin, 'hr-admin', ['system:directory:manage']);
    await addUser(admin, 'pat', ['plain']);
    await addUser(admin, 'hr', ['hr-admin']);
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
      await addRole(self, 'keeper', ['system:directory:manage']);
      await addUser(self, 'keeper', ['keeper']);
      keeper = await login('keeper', 'pw-keeper', t);
    });

    it('nobody deletes or deactivates themselves', async () => {
      refused(await remove(self, '/api/v1/users/admin'), 40900);
      refused(await patch(self, '/api/v1/users/admin', { active: false }), 40900);
      refused(await remove(keeper, '/api/v1/users/keeper'), 40900);
      refused(await patch(keeper, '/api/v1/users/keeper', { active: false }), 40900);
      expect(await user('admin')).toMatchObject({ active: true, roles: ['admin'] });
      expect((await user('keeper')).active).toBe(true);
    });

    it('the last active holder of * cannot be deleted, deactivated or lose the role, nor the role its *', async () => {
      refused(await remove(keeper, '/api/v1/users/admin'), 40908);
      refused(await patch(keeper, '/api/v1/users/admin', { active: false }), 40908);
      // Refused as a whole: the display name in the same patch is not written either.
      refused(await patch(keeper, '/api/v1/users/admin', { roles: ['keeper'], displayName: 'Demoted' }), 40908);
      refused(await patch(keeper, '/api/v1/roles/admin', { permissions: ['system:directory:manage'] }), 40908);
      expect((await remove(keeper, '/api/v1/roles/admin')).status).toBe(409);
      expect(await user('admin')).toMatchObject({ active: true, roles: ['admin'], displayName: 'admin' });
      expect((await api('/api/v1/roles/admin', { token: keeper })).body.data.permissions).toEqual(['*']);
      // Other changes to the last admin still work.
      expect((await patch(keeper, '/api/v1/users/admin', { displayName: 'Boss' })).status).toBe(200);
    });

    it('with workflow:admin held by someone else, the * holder may go; the new last admin is protected in turn', async () => {
      await addRole(self, 'wf-admin', ['workflow:admin']);
      await addUser(self, 'second', ['wf-admin']);
      // An inactive holder does not count.
      await addUser(self, 'dormant', ['admin'], { active: false });
      const demote = await patch(keeper, '/api/v1/users/admin', { roles: ['keeper'] });
      expect(demote.status, JSON.stringify(demote.body)).toBe(200);
      refused(await patch(keeper, '/api/v1/roles/wf-admin', { permissions: ['approval:operate'] }), 40908);
      refused(await patch(keeper, '/api/v1/users/second', { active: false }), 40908);
      refused(await remove(keeper, '/api/v1/users/second'), 40908);
      expect(await user('second')).toMatchObject({ active: true, roles: ['wf-admin'] });
      expect((await api('/api/v1/roles/wf-admin', { token: keeper })).body.data.permissions).toEqual([
        'workflow:admin',
      ]);
      // Waking the dormant * holder makes room again.
      expect((await patch(keeper, '/api/v1/users/dormant', { active: true })).status).toBe(200);
      expect((await remove(keeper, '/api/v1/users/second')).status).toBe(200);
    });
  });
});
