// Skills (docs/rule-chains.md "Skills"): one store served in our envelope at /api/v1/skills and in
// RuleGo's shapes under the rule-engine prefix; names validated; a skill an aiAgent uses stays.
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createDemoLikeTenant, createTenant, expectError } from '../helpers/api.js';

const OURS = '/api/v1/skills';
const RG = '/rulego/api/v1/skills';
let t: Record<string, string>;
let tenantId: string;
let other: string;
let db: any;

beforeAll(async () => {
  ({ tenantId, tokens: t } = await createDemoLikeTenant('rcs'));
  other = (await createTenant('rcso')).adminToken;
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
});
afterAll(() => db?.end());

describe('skills in our envelope', () => {
  it('creates, reads, lists, replaces and deletes', async () => {
    const created = await api(OURS, {
      token: t.admin,
      body: { name: 'tone_polite', description: 'Be polite', content: '# Tone\nAlways polite.' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'tone_polite', description: 'Be polite', scope: 'global' });
    await api(OURS, { token: t.admin, body: { name: 'a-first', content: 'x' } });
    const list = await api(`${OURS}?pageSize=1`, { token: t.alice });
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(list.body.data.items.map((s: any) => s.name)).toEqual(['a-first']);
    expect((await api(`${OURS}/tone_polite`, { token: t.alice })).body.data.content).toBe('# Tone\nAlways polite.');
    const put = await api(`${OURS}/tone_polite`, {
      token: t.admin,
      method: 'PUT',
      body: { content: 'Polite, short.' },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ content: 'Polite, short.', description: '' });
    expect((await api(`${OURS}/a-first`, { token: t.admin, method: 'DELETE' })).body.data).toEqual({ deleted: true });
    expectError(await api(`${OURS}/a-first`, { token: t.admin }), 404, 40400);
  });

  it('refuses bad names, duplicates, writers without definition:write and other tenants', async () => {
    for (const name of ['has space', 'dot.ted', 'x'.repeat(65), ''])
      expectError(await api(OURS, { token: t.admin, body: { name, content: 'c' } }), 400, 40001);
    expectError(await api(OURS, { token: t.admin, body: { name: 'tone_polite', content: 'again' } }), 409, 40903);
    expectError(await api(OURS, { token: t.alice, body: { name: 'mine', content: 'c' } }), 403, 40300);
    expectError(await api(OURS, { token: t.admin, body: { name: 'n', content: 'c', extra: 1 } }), 400, 40003);
    expectError(await api(`${OURS}/tone_polite`, { token: other }), 404, 40400);
    expect((await api(OURS, { token: other })).body.data.total).toBe(0);
  });

  it('a skill an aiAgent of a chain names cannot be deleted (409 IN_USE naming the chain)', async () => {
    await api(OURS, { token: t.admin, body: { name: 'used', content: 'c' } });
    // The chain's row as a save would write it (aiAgent nodes are named here, not run).
    const dsl = {
      ruleChain: { id: 'agentic', name: 'Agentic' },
      metadata: { nodes: [{ id: 'ai', type: 'aiAgent', configuration: { skills: ['used'] } }], connections: [] },
    };
    await db.query(
      `insert into rule_chains (tenant_id, id, name, version, dsl, hook_secret) values ($1, 'agentic', 'Agentic', 1, $2, 'k')`,
      [tenantId, JSON.stringify(dsl)],
    );
    const refused = await api(`${OURS}/used`, { token: t.admin, method: 'DELETE' });
    expectError(refused, 409, 40906);
    expect(refused.body.data.chains).toEqual(['agentic']);
    const rg = await api(`${RG}/used`, { token: t.admin, method: 'DELETE' });
    expectError(rg, 409, 40906);
    expect((rg.body as any).error).toBe(rg.body.message);
    await db.query(`delete from rule_chains where tenant_id = $1 and id = 'agentic'`, [tenantId]);
    expect((await api(`${RG}/used`, { token: t.admin, method: 'DELETE' })).status).toBe(204);
  });
});

describe('skills in RuleGo’s shapes', () => {
  it('lists with path, total, page, size; creates 201; updates; deletes 204', async () => {
    const rg = (path: string, opts: Parameters<typeof api>[1] = {}) =>
      api(path, opts) as Promise<{ status: number; body: any; headers: Headers }>;
    const created = await rg(RG, {
      token: t.admin,
      body: { name: 'rg_skill', description: 'd', scope: 'global', content: '# c' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'rg_skill', description: 'd', content: '# c', scope: 'global' });
    expect(created.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const list = await rg(`${RG}?size=50&page=1`, { token: t.alice });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, size: 50 });
    expect(typeof list.body.path).toBe('string');
    expect(list.body.items.map((s: any) => s.name)).toContain('rg_skill');
    expect(list.body.total).toBe(list.body.items.length);
    // The same store as /api/v1/skills.
    expect((await api(`${OURS}/rg_skill`, { token: t.admin })).body.data.content).toBe('# c');
    const put = await rg(`${RG}/rg_skill`, {
      token: t.admin,
      method: 'PUT',
      body: { name: 'ignored', content: 'new' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'rg_skill', content: 'new' });
    expect((await rg(`${RG}/rg_skill`, { token: t.admin })).body.content).toBe('new');
    const bad = await rg(`${RG}/bad.name`, { token: t.admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTruthy();
    expect((await rg(`${RG}/rg_skill`, { token: t.admin, method: 'DELETE' })).status).toBe(204);
    expect((await rg(`${RG}/rg_skill`, { token: t.admin })).status).toBe(404);
    expect((await rg(RG, { token: t.alice, body: { name: 'x', content: 'c' } })).status).toBe(403);
  });
});
