// Searching the directory (issue 46; docs/contract.md#searching-the-directory) in a tenant of
// 20,000 users seeded through the directory API: POST /users/batch, 1,000 a call (one POST per
// user would take minutes: each hashes a password; the first test measures it).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createTenant, expectError } from '../helpers/api.js';
import { createOrm, type Orm } from '../../src/db/orm.js';
import { departmentNames, personAt } from '../../bench/people.js';
import { normalise, rankOf, userSearchText } from '../../src/directory/people-search.js';

const USERS = 20_000;
const DEPTS = 40;

const ids = (res: { body: any }) => (res.body.data.items as Array<{ id: string }>).map((u) => u.id);
const search = (token: string, q: string, extra = '') =>
  api(`/api/v1/users?q=${encodeURIComponent(q)}${extra}`, { token });

describe('people search at 20,000 users', () => {
  let admin: string;
  let other: string;
  let orm: Orm;
  const names = departmentNames(DEPTS);
  const people = Array.from({ length: USERS }, (_, i) => personAt(i, DEPTS));
  /** Who the tests add besides the generated people. */
  const named = [
    { id: 'zhangsan', username: 'zhangsan', displayName: '张三', deptId: 'd1' },
    { id: 'erin', username: 'erin', displayName: 'erin', email: 'erin@corp.example', deptId: 'd2' },
    { id: 'sherin', username: 'sherin', displayName: 'Sherin Oak', deptId: 'd2' },
    { id: 'erina', username: 'erina', displayName: 'Erina Park', deptId: 'd2' },
  ];
  let seedMs = 0;

  beforeAll(async () => {
    orm = await createOrm(inject('databaseUrl'));
    ({ adminToken: admin } = await createTenant('people'));
    ({ adminToken: other } = await createTenant('people-other'));
    for (const [i, name] of names.entries()) {
      const res = await api('/api/v1/departments', { token: admin, body: { id: `d${i}`, name } });
      expect(res.status).toBe(201);
    }
    const started = performance.now();
    for (let from = 0; from < USERS; from += 1000) {
      const users = people.slice(from, from + 1000).map((p) => ({
        id: p.username,
        username: p.username,
        displayName: p.displayName,
        email: p.email,
        deptId: `d${p.dept}`,
        password: 'initial-pw',
      }));
      const res = await api('/api/v1/users/batch', { token: admin, body: { users } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.ids).toHaveLength(users.length);
    }
    seedMs = performance.now() - started;
    for (const u of named) {
      const res = await api('/api/v1/users', { token: admin, body: { ...u, password: 'pw-named' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // The other tenant has its own 张三.
    await api('/api/v1/users', {
      token: other,
      body: { id: 'other-zhangsan', username: 'zhangsan', displayName: '张三', password: 'pw-other' },
    });
  }, 600_000);
  afterAll(() => orm?.close());

  it('seeds through the batch API far faster than one POST per user', async () => {
    const started = performance.now();
    for (let i = 0; i < 10; i++) {
      const res = await api('/api/v1/users', {
        token: admin,
        body: { username: `single-${i}`, displayName: `Single ${i}`, password: `pw-single-${i}` },
      });
      expect(res.status).toBe(201);
    }
    const perUser = (performance.now() - started) / 10;
    // Reported in the run's output (docs/contract.md quotes the figures).
    console.log(
      `seeding: batch ${(seedMs / 1000).toFixed(1)} s for ${USERS} users; one POST per user ${perUser.toFixed(0)} ms, ` +
        `${((perUser * USERS) / 1000).toFixed(0)} s for ${USERS}`,
    );
    expect(seedMs / USERS).toBeLessThan(perUser);
  });

  it('finds 张三 first by pinyin, spaced pinyin, initials and characters; zhang by its start', async () => {
    for (const q of ['zhangsan', 'ZhangSan', 'zhang san', 'zs', '张三']) {
      const res = await search(admin, q);
      expect(res.status).toBe(200);
      expect(ids(res)[0], q).toBe('zhangsan');
    }
    const zhang = await search(admin, 'zhang', '&pageSize=200');
    expect(ids(zhang)).toContain('zhangsan');
    expect(zhang.body.data.total).toBeGreaterThan(100);
  });

  it('finds erin first, then names starting with erin, then names containing it', async () => {
    const res = await search(admin, 'erin', '&pageSize=200');
    const found = ids(res);
    expect(found[0]).toBe('erin');
    expect(found.indexOf('erina')).toBeLessThan(found.indexOf('sherin'));
    expect(found).toContain('sherin');
    const byEmail = await search(admin, 'erin@corp');
    expect(ids(byEmail)).toEqual(['erin']);
  });

  it('pages in rank then name order with the total, as computed from the people seeded', async () => {
    const q = 'wang';
    const all = [
      ...people.map((p) => ({
        id: p.username,
        name: p.displayName,
        text: userSearchText({ ...p, deptName: names[p.dept] }),
      })),
      ...named.map((u) => ({
        id: u.id,
        name: u.displayName,
        text: userSearchText({ ...u, deptName: names[Number(u.deptId.slice(1))] }),
      })),
    ]
      .map((u) => ({ ...u, rank: rankOf(u.text, normalise(q)) }))
      .filter((u) => u.rank < 4)
      .sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    expect(all.length).toBeGreaterThan(100);
    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await search(admin, q, `&page=${page}&pageSize=50`);
      expect(res.body.data).toMatchObject({ total: all.length, page, pageSize: 50 });
      pages.push(...ids(res));
    }
    expect(pages).toEqual(all.slice(0, 150).map((u) => u.id));
    const beyond = await search(admin, q, `&page=1000&pageSize=50`);
    expect(beyond.body.data).toMatchObject({ items: [], total: all.length });
  });

  it('matches the department, keeps the other filters, and follows renames', async () => {
    const dept = names[7]!;
    const res = await search(admin, dept, '&pageSize=200');
    const members = people.filter((p) => p.dept === 7).map((p) => p.username);
    expect(res.body.data.total).toBe(members.length);
    expect(ids(res).every((id) => members.includes(id))).toBe(true);
    const filtered = await search(admin, 'erin', '&deptId=d2&active=true');
    expect(ids(filtered)).toEqual(['erin', 'erina', 'sherin']);

    expect(
      (await api('/api/v1/departments/d1', { method: 'PATCH', token: admin, body: { name: '星际舰队' } })).status,
    ).toBe(200);
    // d1's members and 张三 now answer to the new name, by pinyin too; nobody to the old one.
    const d1 = people.filter((p) => p.dept === 1).length + 1;
    expect((await search(admin, 'xingjijiandui')).body.data.total).toBe(d1);
    expect((await search(admin, names[1]!)).body.data.total).toBe(0);
    const [row] = await orm.em
      .fork()
      .execute(`select search_text from users where id = 'zhangsan' and search_text like '%|星际舰队|%'`);
    expect(row).toBeDefined();

    expect(
      (await api('/api/v1/users/erina', { method: 'PATCH', token: admin, body: { displayName: '李四' } })).status,
    ).toBe(200);
    expect(ids(await search(admin, 'lisi'))[0]).toBe('erina');
  });

  it('fills the search text of rows written without one (SQL, the seed) at the next search', async () => {
    const tenant = (await api('/api/v1/auth/me', { token: admin })).body.data.tenant.id;
    await orm.em
      .fork()
      .execute(
        `insert into users (tenant_id, id, username, display_name, password_hash) values (?, 'sql-made', 'sql-made', '欧阳娜娜', 'x')`,
        [tenant],
      );
    expect(ids(await search(admin, 'ouyang'))).toContain('sql-made');
    const [row] = await orm.em
      .fork()
      .execute(`select search_text from users where tenant_id = ? and id = 'sql-made'`, [tenant]);
    expect(row.search_text).toContain('|ouyangnana|');
  });

  it('searches roles by code and name and departments by name, pinyin included', async () => {
    await api('/api/v1/roles', { token: admin, body: { code: 'finance_approver', name: '财务审批' } });
    await api('/api/v1/roles', { token: admin, body: { code: 'hr_manager', name: 'HR manager' } });
    const roles = await api('/api/v1/roles?q=caiwu', { token: admin });
    expect(roles.body.data.items.map((r: any) => r.code)).toEqual(['finance_approver']);
    const hr = await api('/api/v1/roles?q=hr', { token: admin });
    expect(hr.body.data.items.map((r: any) => r.code)).toEqual(['hr_manager']);
    const byCode = await api('/api/v1/roles?q=finance', { token: admin });
    expect(byCode.body.data.items.map((r: any) => r.code)).toEqual(['finance_approver']);

    const depts = await api('/api/v1/departments?q=yanfa&pageSize=200', { token: admin });
    const expected = names.map((n, i) => [n, `d${i}`] as const).filter(([n]) => n.startsWith('研发'));
    expect(depts.body.data.total).toBe(expected.length);
    expect(depts.body.data.items[0].name).toBe('研发1部');
    const exact = await api(`/api/v1/departments?q=${encodeURIComponent('市场2部')}`, { token: admin });
    expect(exact.body.data.items.map((d: any) => d.name)).toEqual(['市场2部']);
  });

  it("never answers another tenant's users", async () => {
    const mine = await search(admin, 'zhangsan', '&pageSize=200');
    expect(ids(mine)).not.toContain('other-zhangsan');
    const theirs = await search(other, 'zs', '&pageSize=200');
    expect(ids(theirs)).toEqual(['other-zhangsan']);
    expect(theirs.body.data.total).toBe(1);
  });

  it('refuses a query too long or with U+0000 (400), and an empty one lists as before', async () => {
    expectError(await search(admin, 'x'.repeat(101)), 400, 40001);
    expectError(await search(admin, 'a\u0000b'), 400, 40001);
    expectError(await api(`/api/v1/roles?q=${'y'.repeat(101)}`, { token: admin }), 400, 40001);
    const plain = await search(admin, '', '&pageSize=5');
    expect(plain.body.data.total).toBeGreaterThan(USERS);
    expect(ids(plain)).toEqual([...ids(plain)].sort());
  });

  it('creates a batch all or none, with the checks of POST /users', async () => {
    const bad = await api('/api/v1/users/batch', {
      token: admin,
      body: {
        users: [
          { id: 'batch-a', username: 'batch-a', password: 'pw-batch', managerId: 'batch-b' },
          { id: 'batch-b', username: 'batch-b', password: 'pw-batch', deptId: 'nowhere' },
        ],
      },
    });
    expectError(bad, 404, 40410);
    expect(bad.body.data.fields).toEqual([{ path: 'users.1.deptId', message: 'no department nowhere' }]);
    expect((await api('/api/v1/users/batch-a', { token: admin })).status).toBe(404);

    const dup = await api('/api/v1/users/batch', {
      token: admin,
      body: {
        users: [
          { username: 'twice', password: 'pw-twice' },
          { username: 'twice', password: 'pw-twice' },
        ],
      },
    });
    expect(dup.status).toBe(409);
    const exists = await api('/api/v1/users/batch', {
      token: admin,
      body: {
        users: [
          { username: 'fresh-one', password: 'pw-fresh' },
          { username: 'erin', password: 'pw-fresh' },
        ],
      },
    });
    expect(exists.status).toBe(409);
    expect((await search(admin, 'fresh-one')).body.data.total).toBe(0);

    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ username: `many-${i}`, password: 'pw-many' }));
    expect((await api('/api/v1/users/batch', { token: admin, body: { users: tooMany } })).status).toBe(400);
    expect(
      (await api('/api/v1/users/batch', { token: admin, body: { users: [{ username: 'x', password: 'no' }] } })).status,
    ).toBe(400);

    const good = await api('/api/v1/users/batch', {
      token: admin,
      body: {
        users: [
          { id: 'batch-a', username: 'batch-a', password: 'pw-batch', managerId: 'batch-b', roles: ['admin'] },
          { id: 'batch-b', username: 'batch-b', displayName: '钱多多', password: 'pw-batch', deptId: 'd3' },
        ],
      },
    });
    expect(good.status).toBe(201);
    expect(good.body.data.ids).toEqual(['batch-a', 'batch-b']);
    expect((await api('/api/v1/users/batch-a', { token: admin })).body.data).toMatchObject({
      managerId: 'batch-b',
      roles: ['admin'],
    });
    expect(ids(await search(admin, 'qdd'))).toEqual(['batch-b']);
    const login = await api('/api/v1/auth/login', {
      body: {
        username: 'batch-b',
        password: 'pw-batch',
        tenantId: (await api('/api/v1/auth/me', { token: admin })).body.data.tenant.id,
      },
    });
    expect(login.status).toBe(200);
  });
});
