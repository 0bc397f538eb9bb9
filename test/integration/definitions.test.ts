import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { api, createDemoLikeTenant, createTenant, login } from '../helpers/api.js';
import { processDoc, users } from '../helpers/dsl.js';

const base = '/api/v1/workflow/process-definitions';
const examplesDir = path.resolve(import.meta.dirname, '../..', 'examples');

/** A small valid process: start → switch → (approve | end). */
function dsl(key: string, opts: { name?: string; category?: string; description?: string; cases?: string[] } = {}) {
  const cases = opts.cases ?? ['msg.amount > 100'];
  return processDoc(
    {
      id: key,
      name: opts.name ?? `Process ${key}`,
      additionalInfo: { category: opts.category ?? 'Test', description: opts.description ?? 'a test process' },
    },
    [
      {
        id: 'route',
        type: 'switch',
        name: 'Route',
        configuration: { cases: cases.map((c) => ({ case: c, then: 'big' })) },
      },
      { id: 'approve', type: 'userTask', name: 'Approve', configuration: users('bob') },
    ],
    [
      ['start', 'route'],
      ['route', 'approve', 'big'],
      ['route', 'end', 'Default'],
      ['approve', 'end'],
    ],
  );
}

describe('process definitions', () => {
  let tenantId: string;
  let admin: string;
  let designer: string;
  let reader: string; // alice: employee, definition read only
  let nobody: string; // no permission at all
  let db: any;

  const deploy = (body: unknown, token = admin) => api(`${base}/deploy`, { token, body });
  const get = (p: string, token = admin) => api(`${base}${p}`, { token });

  beforeAll(async () => {
    const t = await createDemoLikeTenant('def');
    tenantId = t.tenantId;
    admin = t.tokens.admin;
    reader = t.tokens.alice;
    for (const [id, roles] of [
      ['dana', ['designer']],
      ['nemo', []],
    ] as const) {
      const r = await api('/api/v1/users', { token: admin, body: { id, username: id, password: `pw-${id}`, roles } });
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

  it('deploys versions: each deploy is the next version, the previous active one is retired', async () => {
    const first = await deploy({ dsl: dsl('trip') }, designer);
    expect(first.status).toBe(201);
    expect(first.body.code).toBe(0);
    expect(first.body.data).toMatchObject({
      key: 'trip',
      name: 'Process trip',
      version: 1,
      status: 'active',
      category: 'Test',
      description: 'a test process',
      createdBy: 'dana',
    });
    expect(first.body.data.deployedAt).toBeTruthy();
    expect(first.body.data.dsl.ruleChain.id).toBe('trip');

    const second = await deploy({ dsl: dsl('trip', { name: 'Trip v2' }) });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ version: 2, status: 'active', name: 'Trip v2' });

    expect((await get(`/${first.body.data.id}`)).body.data.status).toBe('retired');
    const active = await get('/key/trip');
    expect(active.status).toBe(200);
    expect(active.body.data.id).toBe(second.body.data.id);

    const versions = await get('/key/trip/versions');
    expect(versions.body.data).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(versions.body.data.items.map((d: any) => [d.version, d.status])).toEqual([
      [2, 'active'],
      [1, 'retired'],
    ]);
    const byId = await get(`/${first.body.data.id}/versions?pageSize=1&page=2`);
    expect(byId.body.data).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(byId.body.data.items.map((d: any) => d.version)).toEqual([1]);
  });

  it('imports a DSL (JSON body and multipart file): an existing key bumps the version', async () => {
    const first = await api(`${base}/import`, { token: admin, body: { dsl: dsl('imported') } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ key: 'imported', version: 1, status: 'active' });

    const again = await api(`${base}/import`, { token: admin, body: { dsl: dsl('imported') } });
    expect(again.status).toBe(201);
    expect(again.body.data.version).toBe(2);

    const form = new FormData();
    form.append(
      'file',
      new Blob([JSON.stringify(dsl('imported', { name: 'From a file' }))], { type: 'application/json' }),
      'imported.json',
    );
    const file = await api(`${base}/import`, { token: admin, raw: form });
    expect(file.status).toBe(201);
    expect(file.body.data).toMatchObject({ key: 'imported', version: 3, status: 'active', name: 'From a file' });
    expect((await get(`/${again.body.data.id}`)).body.data.status).toBe('retired');

    const notJson = new FormData();
    notJson.append('file', new Blob(['{ nope']), 'bad.json');
    expect((await api(`${base}/import`, { token: admin, raw: notJson })).status).toBe(400);
    const noFile = new FormData();
    noFile.append('other', 'x');
    expect((await api(`${base}/import`, { token: admin, raw: noFile })).status).toBe(400);
    expect((await api(`${base}/import`, { token: admin, body: { dsl: dsl('imported'), extra: 1 } })).status).toBe(400);
  });

  it('activates an old version (the current one is retired) and treats activating the active one as a no-op', async () => {
    const v1 = (await deploy({ dsl: dsl('rollback') })).body.data;
    const v2 = (await deploy({ dsl: dsl('rollback') })).body.data;
    const back = await api(`${base}/${v1.id}/activate`, { token: admin, method: 'POST' });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ id: v1.id, version: 1, status: 'active' });
    expect((await get(`/${v2.id}`)).body.data.status).toBe('retired');
    expect((await get('/key/rollback')).body.data.id).toBe(v1.id);

    const again = await api(`${base}/${v1.id}/activate`, { token: admin, method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: v1.id, status: 'active' });

    const retired = await api(`${base}/${v1.id}/retire`, { token: admin, method: 'POST' });
    expect(retired.status).toBe(200);
    expect(retired.body.data.status).toBe('retired');
    expect((await api(`${base}/${v1.id}/retire`, { token: admin, method: 'POST' })).status).toBe(200);
    const none = await get('/key/rollback');
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(40400);
  });

  it('publishes a draft by activation or by deploy { draftId }: the draft row becomes the next version', async () => {
    await deploy({ dsl: dsl('drafted') });
    const draft = await api(base, { token: designer, body: { dsl: dsl('drafted', { name: 'Draft name' }) } });
    expect(draft.status).toBe(201);
    expect(draft.body.data).toMatchObject({
      key: 'drafted',
      version: null,
      status: 'draft',
      name: 'Draft name',
      deployedAt: null,
    });
    expect((await get('/key/drafted/versions')).body.data.total).toBe(1);

    const published = await api(`${base}/${draft.body.data.id}/activate`, { token: designer, method: 'POST' });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({
      id: draft.body.data.id,
      version: 2,
      status: 'active',
      name: 'Draft name',
    });
    expect(published.body.data.deployedAt).toBeTruthy();
    const versions = (await get('/key/drafted/versions')).body.data.items;
    expect(versions.map((d: any) => [d.version, d.status])).toEqual([
      [2, 'active'],
      [1, 'retired'],
    ]);

    const next = await api(base, { token: designer, body: { dsl: dsl('drafted') } });
    const viaDeploy = await deploy({ draftId: next.body.data.id });
    expect(viaDeploy.status).toBe(201);
    expect(viaDeploy.body.data).toMatchObject({ id: next.body.data.id, version: 3, status: 'active' });
    const twice = await deploy({ draftId: next.body.data.id });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe(40905);
    expect((await deploy({ dsl: dsl('drafted'), draftId: next.body.data.id })).status).toBe(400);
    expect((await deploy({})).status).toBe(400);
  });

  it('refuses to publish an invalid draft with 422 and keeps it a draft', async () => {
    const bad = dsl('broken_draft');
    bad.metadata.connections.push({ fromId: 'approve', toId: 'ghost', type: 'Failure' });
    const draft = await api(base, { token: admin, body: { dsl: bad } });
    expect(draft.status).toBe(201);
    const res = await api(`${base}/${draft.body.data.id}/activate`, { token: admin, method: 'POST' });
    expect(res.status).toBe(422);
    expect(res.body.data.problems.length).toBeGreaterThan(0);
    expect((await get(`/${draft.body.data.id}`)).body.data).toMatchObject({ status: 'draft', version: null });
  });

  it('deploys the four example processes', async () => {
    const files = (await readdir(examplesDir)).filter((f) => f.endsWith('.json')).sort();
    expect(files).toHaveLength(4);
    for (const file of files) {
      const doc = JSON.parse(await readFile(path.join(examplesDir, file), 'utf8'));
      const res = await deploy({ dsl: doc });
      expect(res.status, `${file}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data).toMatchObject({
        key: doc.ruleChain.id,
        name: doc.ruleChain.name,
        status: 'active',
        category: doc.ruleChain.additionalInfo.category,
      });
    }
  });

  it('answers 422 listing every problem of an invalid DSL', async () => {
    const bad = dsl('bad');
    bad.metadata.nodes.push(
      { id: 'js', type: 'jsSwitch', name: 'Script' } as any,
      { id: 'svc', type: 'serviceTask', name: 'Service', configuration: { functionName: 'noSuchFunction' } } as any,
    );
    (bad.metadata.nodes[1] as any).configuration.cases.push({ case: 'msg.amount >', then: 'big' });
    bad.metadata.connections.push(
      { fromId: 'approve', toId: 'js', type: 'Failure' },
      { fromId: 'js', toId: 'svc', type: 'Success' },
      { fromId: 'svc', toId: 'end', type: 'Success' },
      { fromId: 'end', toId: 'nowhere', type: 'Success' },
    );
    const res = await deploy({ dsl: bad });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(42200);
    const problems: Array<{ nodeId: string | null; field: string; message: string }> = res.body.data.problems;
    for (const p of problems) {
      expect(p).toHaveProperty('nodeId');
      expect(typeof p.field).toBe('string');
      expect(p.message.length).toBeGreaterThan(0);
    }
    const nodes = new Set(problems.map((p) => p.nodeId));
    for (const id of ['js', 'svc', 'route']) expect(nodes, JSON.stringify(problems)).toContain(id);
    expect(JSON.stringify(problems)).toContain('nowhere');
    expect((await get('/key/bad')).status).toBe(404);
    expect((await api(`${base}/import`, { token: admin, body: { dsl: bad } })).status).toBe(422);
  });

  it('keeps drafts editable and published versions fixed', async () => {
    const draft = (await api(base, { token: admin, body: { dsl: dsl('editable') } })).body.data;
    const renamed = await api(`${base}/${draft.id}`, {
      token: admin,
      method: 'PUT',
      body: { dsl: dsl('editable_renamed', { name: 'Renamed', category: 'Other' }) },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({
      id: draft.id,
      key: 'editable_renamed',
      name: 'Renamed',
      category: 'Other',
      status: 'draft',
    });
    expect(
      (await api(`${base}/${draft.id}`, { token: admin, method: 'PUT', body: { dsl: dsl('x'), name: 'no' } })).status,
    ).toBe(400);
    expect((await api(`${base}/${draft.id}/retire`, { token: admin, method: 'POST' })).status).toBe(409);

    const deleted = await api(`${base}/${draft.id}`, { token: admin, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true });
    expect((await get(`/${draft.id}`)).status).toBe(404);

    const version = (await deploy({ dsl: dsl('fixed') })).body.data;
    const put = await api(`${base}/${version.id}`, { token: admin, method: 'PUT', body: { dsl: dsl('fixed') } });
    expect(put.status).toBe(409);
    expect(put.body.code).toBe(40905);
    expect(
      (await api(`${base}/${version.id}`, { token: admin, method: 'PUT', body: { dsl: { nonsense: true } } })).status,
    ).toBe(409);
    expect((await api(base, { token: admin, body: { dsl: { ruleChain: { name: 'no key' } } } })).status).toBe(422);
  });

  it('refuses to delete a version that instances use, and deletes one that none use', async () => {
    const version = (await deploy({ dsl: dsl('used') })).body.data;
    const { rows } = await db.query(`select to_regclass('public.instances') is not null as present`);
    if (rows[0].present) {
      await db.query(
        `insert into instances (id, tenant_id, definition_id, process_key, process_name, status, initiator_id) values ($1, $2, $3, 'used', 'used', 'completed', 'admin')`,
        [`fake-${version.id}`, tenantId, version.id],
      );
      const res = await api(`${base}/${version.id}`, { token: admin, method: 'DELETE' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(40906);
      await db.query('delete from instances where id = $1', [`fake-${version.id}`]);
    }
    expect((await api(`${base}/${version.id}`, { token: admin, method: 'DELETE' })).status).toBe(200);
    expect((await get('/key/used')).status).toBe(404);
  });

  it('validates conditions of a DSL and of a list of expressions', async () => {
    const res = await api(`${base}/validate-conditions`, {
      token: reader,
      body: { dsl: dsl('cond', { cases: ['msg.days <= 3', 'msg.days >'] }) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.results).toHaveLength(2);
    expect(res.body.data.results[0]).toMatchObject({
      nodeId: 'route',
      caseIndex: 1,
      expression: 'msg.days <= 3',
      valid: true,
    });
    expect(res.body.data.results[1]).toMatchObject({
      nodeId: 'route',
      caseIndex: 2,
      expression: 'msg.days >',
      valid: false,
    });
    expect(res.body.data.results[1].error).toBeTruthy();

    const list = await api(`${base}/validate-conditions`, {
      token: designer,
      body: { expressions: ["msg.type == 'A' && msg.amount > 100", 'len(msg.items) > 2', '(('] },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.valid).toBe(false);
    expect(list.body.data.results.map((r: any) => [r.index, r.valid])).toEqual([
      [0, true],
      [1, true],
      [2, false],
    ]);

    const good = await api(`${base}/validate-conditions`, { token: admin, body: { expressions: ['msg.a > 1'] } });
    expect(good.body.data.valid).toBe(true);
    expect((await api(`${base}/validate-conditions`, { token: admin, body: {} })).status).toBe(400);
    expect(
      (await api(`${base}/validate-conditions`, { token: nobody, body: { expressions: ['1 == 1'] } })).status,
    ).toBe(403);
  });

  it('lists with filters and pagination', async () => {
    const t = await createTenant('deflist');
    const tok = t.adminToken;
    for (const [key, name, category] of [
      ['a_one', 'Alpha One', 'Finance'],
      ['a_two', 'Alpha Two', 'Finance'],
      ['b_one', 'Beta', 'HR'],
    ]) {
      expect((await deploy({ dsl: dsl(key, { name, category }) }, tok)).status).toBe(201);
    }
    await deploy({ dsl: dsl('a_one', { name: 'Alpha One', category: 'Finance' }) }, tok);
    await api(base, { token: tok, body: { dsl: dsl('c_draft', { name: 'Gamma', category: 'HR' }) } });

    const all = await api(`${base}`, { token: tok });
    expect(all.body.data).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    const byKey = await api(`${base}?key=a_one`, { token: tok });
    expect(byKey.body.data.items.map((d: any) => d.version).sort()).toEqual([1, 2]);
    const byName = await api(`${base}?name=alpha`, { token: tok });
    expect(byName.body.data.total).toBe(3);
    const byCategory = await api(`${base}?category=HR`, { token: tok });
    expect(byCategory.body.data.items.map((d: any) => d.key).sort()).toEqual(['b_one', 'c_draft']);
    const drafts = await api(`${base}?status=draft`, { token: tok });
    expect(drafts.body.data.items.map((d: any) => d.key)).toEqual(['c_draft']);
    const activeFinance = await api(`${base}?status=active&category=Finance`, { token: tok });
    expect(activeFinance.body.data.total).toBe(2);
    const paged = await api(`${base}?pageSize=2&page=3`, { token: tok });
    expect(paged.body.data).toMatchObject({ total: 5, page: 3, pageSize: 2 });
    expect(paged.body.data.items).toHaveLength(1);
    expect((await api(`${base}?pageSize=201`, { token: tok })).status).toBe(400);
    expect((await api(`${base}?status=gone`, { token: tok })).status).toBe(400);
    expect((await api(`${base}?name=%25`, { token: tok })).body.data.total).toBe(0);

    const categories = await api(`${base}/categories`, { token: tok });
    expect(categories.status).toBe(200);
    expect(categories.body.data).toEqual([
      {
        category: 'Finance',
        definitions: [
          expect.objectContaining({
            key: 'a_one',
            name: 'Alpha One',
            version: 2,
            description: 'a test process',
            id: expect.any(String),
          }),
          expect.objectContaining({ key: 'a_two', name: 'Alpha Two', version: 1 }),
        ],
      },
      { category: 'HR', definitions: [expect.objectContaining({ key: 'b_one', version: 1 })] },
    ]);
    expect(Object.keys(categories.body.data[0].definitions[0]).sort()).toEqual([
      'description',
      'id',
      'key',
      'name',
      'version',
    ]);
  });

  it('answers 404 for a key without an active version', async () => {
    expect((await get('/key/never_deployed')).status).toBe(404);
    expect((await get('/key/never_deployed/versions')).status).toBe(404);
    expect((await get('/no-such-id')).status).toBe(404);
  });

  it('serialises concurrent deploys of one key: versions 1..5, exactly one active', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => deploy({ dsl: dsl('race') })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.map((r) => r.body.data.version).sort()).toEqual([1, 2, 3, 4, 5]);
    const { rows } = await db.query(
      'select version, status from process_definitions where tenant_id = $1 and key = $2 order by version',
      [tenantId, 'race'],
    );
    expect(rows.map((r: any) => r.version)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.filter((r: any) => r.status === 'active')).toEqual([{ version: 5, status: 'active' }]);
    // The partial unique index refuses a second active version outright.
    await expect(
      db.query(
        `update process_definitions set status = 'active' where tenant_id = $1 and key = 'race' and version = 1`,
        [tenantId],
      ),
    ).rejects.toThrow(/unique/);
  });

  it('needs workflow:definition:write to change and workflow:definition:read to read', async () => {
    const version = (await deploy({ dsl: dsl('guarded') })).body.data;
    const draft = (await api(base, { token: admin, body: { dsl: dsl('guarded') } })).body.data;
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/deploy', { dsl: dsl('guarded') }],
      ['POST', '/import', { dsl: dsl('guarded') }],
      ['POST', '', { dsl: dsl('guarded') }],
      ['PUT', `/${draft.id}`, { dsl: dsl('guarded') }],
      ['DELETE', `/${draft.id}`, undefined],
      ['POST', `/${draft.id}/activate`, undefined],
      ['POST', `/${version.id}/retire`, undefined],
    ];
    for (const [method, p, body] of writes) {
      const res = await api(`${base}${p}`, { method, token: reader, body });
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(res.body.code).toBe(40300);
    }
    const reads = ['', '/key/guarded', '/key/guarded/versions', `/${version.id}`, `/${version.id}/versions`];
    for (const p of reads) {
      expect((await get(p, reader)).status, `reader GET ${p}`).toBe(200);
      expect((await get(p, nobody)).status, `nobody GET ${p}`).toBe(403);
    }
    expect((await get('/categories', reader)).status).toBe(200);
    expect((await get('/categories', nobody)).status).toBe(403);
    expect((await api(base)).status).toBe(401);
  });

  it('hides definitions of other tenants (404 on every {id} endpoint)', async () => {
    const mine = (await deploy({ dsl: dsl('private') })).body.data;
    const draft = (await api(base, { token: admin, body: { dsl: dsl('private') } })).body.data;
    const other = (await createTenant('defother')).adminToken;
    for (const id of [mine.id, draft.id]) {
      for (const [method, p, body] of [
        ['GET', `/${id}`, undefined],
        ['GET', `/${id}/versions`, undefined],
        ['PUT', `/${id}`, { dsl: dsl('private') }],
        ['DELETE', `/${id}`, undefined],
        ['POST', `/${id}/activate`, undefined],
        ['POST', `/${id}/retire`, undefined],
      ] as const) {
        const res = await api(`${base}${p}`, { method, token: other, body });
        expect(res.status, `${method} ${p}`).toBe(404);
      }
    }
    expect((await deploy({ draftId: draft.id }, other)).status).toBe(404);
    expect((await get('/key/private', other)).status).toBe(404);
    expect((await get('/categories', other)).body.data).toEqual([]);
    expect((await get(`/${mine.id}`)).body.data.status).toBe('active');
    expect((await get(`/${draft.id}`)).body.data.status).toBe('draft');
  });

  it('documents every endpoint in OpenAPI', async () => {
    const doc = (await api('/openapi.json')).body as any;
    for (const p of [
      '',
      '/categories',
      '/key/{processKey}',
      '/key/{processKey}/versions',
      '/{id}',
      '/{id}/versions',
      '/deploy',
      '/import',
      '/validate-conditions',
      '/{id}/activate',
      '/{id}/retire',
    ]) {
      expect(doc.paths, p).toHaveProperty(`${base}${p}`);
    }
    expect(Object.keys(doc.paths[`${base}/import`].post.requestBody.content).sort()).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
  });
});
