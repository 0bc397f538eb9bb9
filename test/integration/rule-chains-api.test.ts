// The bridged rule-engine API over real HTTP (docs/rule-chains.md): chains as versioned documents
// and their refusals, RuleGo's list, start/stop, execute and notify through the chainRun workflow,
// the run log, permissions and tenant isolation, and every route in /openapi.json.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api as envelopeApi,
  createDemoLikeTenant,
  createTenant,
  expectError,
  type RequestOpts,
} from '../helpers/api.js';
import { eventually } from '../helpers/flow.js';

const P = '/rulego/api/v1';
/** The bridged API answers RuleGo's shapes, not the envelope. */
const api = (path: string, opts: RequestOpts = {}) =>
  envelopeApi(path, opts) as Promise<{ status: number; body: any; headers: Headers }>;
let t: Record<string, string>;
let tenantId: string;
let other: string;
let otherTenant: string;

const node = (id: string, type: string, configuration: Record<string, unknown> = {}) => ({
  id,
  type,
  name: id,
  configuration,
});
const conn = (fromId: string, toId: string, type = 'Success') => ({ fromId, toId, type });
function chain(
  id: string,
  nodes: unknown[],
  connections: unknown[] = [],
  head: Record<string, unknown> = {},
  endpoints: unknown[] = [],
) {
  return { ruleChain: { id, name: `Chain ${id}`, root: true, ...head }, metadata: { endpoints, nodes, connections } };
}
/** amount > 100 → a transform that answers {orderId, big}; otherwise the message as it came. */
const orders = (id: string, head: Record<string, unknown> = {}) =>
  chain(
    id,
    [
      node('f', 'exprFilter', { expr: 'msg.amount > 100' }),
      node('t', 'exprTransform', { mapping: { orderId: 'msg.id', big: 'msg.amount > 100' } }),
    ],
    [conn('f', 't', 'True')],
    head,
  );

const save = (id: string, body: unknown, token = t.admin) => api(`${P}/rules/${id}`, { token, body });
const saved = async (id: string, body: unknown) => {
  const res = await save(id, body);
  if (res.status !== 200) throw new Error(`save ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const execute = (id: string, data: unknown, token = t.admin, msgType = 'ORDER', query = '') =>
  api(`${P}/rules/${id}/execute/${msgType}${query}`, { token, body: data });

beforeAll(async () => {
  ({ tenantId, tokens: t } = await createDemoLikeTenant('rc'));
  ({ adminToken: other, tenantId: otherTenant } = await createTenant('rco'));
});

/** A refusal in our envelope with RuleGo's `error` beside it. */
function refused(res: { status: number; body: any }, status: number, code: number) {
  expectError(res, status, code);
  expect(res.body.error).toBe(res.body.message);
}

describe('chains as versioned documents', () => {
  it('saves, answers the raw DSL, numbers versions and keeps unknown fields', async () => {
    const doc = {
      ...orders('c1', { additionalInfo: { category: 'sales', description: 'orders in', layout: 7 } }),
      extra: { x: 1 },
    };
    const first = await saved('c1', doc);
    expect(first.ruleChain).toMatchObject({ id: 'c1', name: 'Chain c1', disabled: false });
    const got = await api(`${P}/rules/c1`, { token: t.admin });
    expect(got.status).toBe(200);
    expect(got.body.extra).toEqual({ x: 1 });
    expect(got.body.ruleChain.additionalInfo.layout).toBe(7);
    expect(got.body.metadata.nodes.map((n: any) => n.id)).toEqual(['f', 't']);
    expect(JSON.stringify(got.body)).not.toMatch(/secret/i);
    // The body may leave ruleChain.id out: it is filled from the path.
    const second = orders('c1');
    delete (second.ruleChain as any).id;
    second.ruleChain.name = 'Orders v2';
    expect((await saved('c1', second)).ruleChain.id).toBe('c1');
    // The new version replaces the document: a key it leaves out is gone.
    expect((await api(`${P}/rules/c1`, { token: t.admin })).body).not.toHaveProperty('extra');
    const versions = await api(`${P}/rules/c1/versions`, { token: t.admin });
    expect(versions.status).toBe(200);
    expect(versions.body).toMatchObject({ total: 2, page: 1 });
    expect(versions.body.items.map((v: any) => [v.version, v.deployed, v.name])).toEqual([
      [2, true, 'Orders v2'],
      [1, false, 'Chain c1'],
    ]);
    // A body naming another id is refused.
    refused(await save('c1', orders('c2')), 422, 42290);
  });

  it('refuses what does not validate with 422 naming node and field, and stores nothing', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['unknown node type', chain('bad', [node('x', 'noSuchNode')]), 'x'],
      [
        'dangling connection',
        chain('bad', [node('f', 'exprFilter', { expr: 'true' })], [conn('f', 'ghost', 'True')]),
        'f',
      ],
      ['bad expression', chain('bad', [node('f', 'exprFilter', { expr: 'msg.amount >' })]), 'f'],
      ['bad script', chain('bad', [node('j', 'jsFilter', { jsScript: 'return (msg.a' })]), 'j'],
      ['missing sub-chain', chain('bad', [node('sub', 'flow', { targetId: 'no-such-chain' })]), 'sub'],
      ['missing function', chain('bad', [node('fn', 'functions', { functionName: 'NoSuch.fn' })]), 'fn'],
    ];
    for (const [what, body, nodeId] of cases) {
      const res = await save('bad', body);
      refused(res, 422, 42290);
      const problems = res.body.data.problems as any[];
      expect(problems.length, what).toBeGreaterThan(0);
      expect(
        problems.some((p) => p.nodeId === nodeId || String(p.message).includes('ghost')),
        `${what}: ${JSON.stringify(problems)}`,
      ).toBe(true);
      expect(
        problems.every((p) => typeof p.message === 'string' && 'field' in p),
        what,
      ).toBe(true);
    }
    const fieldOf = async (body: unknown) => ((await save('bad', body)).body.data.problems as any[])[0].field as string;
    expect(await fieldOf(cases[2]![1])).toMatch(/expr/);
    expect(await fieldOf(cases[3]![1])).toMatch(/jsScript/);
    expect(await fieldOf(cases[4]![1])).toMatch(/targetId/);
    expect(await fieldOf(cases[5]![1])).toMatch(/functionName/);
    refused(await api(`${P}/rules/bad`, { token: t.admin }), 404, 40400);
    // An existing chain keeps its version when a new one is refused.
    await saved('keep', orders('keep'));
    refused(await save('keep', cases[2]![1] as any), 422, 42290); // its ruleChain.id is `bad`
    const body = cases[2]![1] as any;
    refused(await save('keep', { ...body, ruleChain: { ...body.ruleChain, id: 'keep' } }), 422, 42290);
    expect((await api(`${P}/rules/keep/versions`, { token: t.admin })).body.total).toBe(1);
  });

  it('accepts a sub-chain that exists and a chain calling itself', async () => {
    await saved('callee', orders('callee'));
    await saved('caller', chain('caller', [node('sub', 'flow', { targetId: 'callee' })]));
    await saved('self', chain('self', [node('sub', 'flow', { targetId: 'self' })]));
  });

  it('refuses ids RuleGo refuses', async () => {
    refused(await save('a.b', orders('a.b')), 400, 40001);
    refused(await save('x'.repeat(257), orders('x'.repeat(257))), 400, 40001);
  });

  it('every error answer under the prefix has RuleGo’s error field: the edge’s input checks, 401, 404 and 405 too', async () => {
    refused(await api(`${P}/logs/runs?id=a%00b`, { token: t.admin }), 400, 40001);
    refused(await api(`${P}/rules`), 401, 40100);
    refused(await api(`${P}/no-such-route`, { token: t.admin }), 404, 40401);
    refused(await api(`${P}/rules`, { method: 'PATCH', token: t.admin, body: {} }), 405, 40500);
  });

  it('lists with keywords, category, root, disabled and paging', async () => {
    await saved('list-a', orders('list-a', { name: 'Alpha invoices', additionalInfo: { category: 'finance' } }));
    await saved(
      'list-b',
      orders('list-b', { name: 'Beta', root: false, additionalInfo: { description: 'invoices out' } }),
    );
    await saved('list-c', orders('list-c', { name: 'Gamma', disabled: true }));
    const list = async (q: string) => (await api(`${P}/rules?${q}`, { token: t.admin })).body;
    const ids = async (q: string) => ((await list(q)).items as any[]).map((i) => i.ruleChain.id).sort();
    expect(await ids('keywords=invoices')).toEqual(['list-a', 'list-b']);
    expect(await ids('keywords=LIST-C')).toEqual(['list-c']);
    expect(await ids('category=finance')).toEqual(['list-a']);
    expect(await ids('keywords=list-&root=false')).toEqual(['list-b']);
    expect(await ids('keywords=list-&disabled=true')).toEqual(['list-c']);
    const page = await list('keywords=list-&size=2&page=2');
    expect(page).toMatchObject({ total: 3, page: 2, size: 2 });
    expect(page.items).toHaveLength(1);
    const item = (await list('keywords=list-a')).items[0];
    expect(item.ruleChain).toMatchObject({ id: 'list-a', name: 'Alpha invoices', root: true, disabled: false });
    expect(item.ruleChain.additionalInfo).toMatchObject({ category: 'finance', message: '' });
    expect(item.ruleChain.additionalInfo.updateTime).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(item.metadata).toEqual({ endpoints: [] });
    expect(item).not.toHaveProperty('metadata.nodes');
  });

  it('maps permissions: read with definition:read, save and operate with definition:write', async () => {
    expect((await api(`${P}/rules/c1`, { token: t.alice })).status).toBe(200);
    refused(await save('c1', orders('c1'), t.alice), 403, 40300);
    refused(await api(`${P}/rules/c1/operate/stop`, { token: t.alice, method: 'POST' }), 403, 40300);
    refused(await api(`${P}/rules/c1`, { token: t.alice, method: 'DELETE' }), 403, 40300);
    refused(await api(`${P}/rules/c1/hook-secret`, { token: t.alice }), 403, 40300);
    refused(await api(`${P}/rules`), 401, 40100);
  });

  it('answers the hook secret to writers only, and a rotation replaces it', async () => {
    const first = await api(`${P}/rules/c1/hook-secret`, { token: t.admin });
    expect(first.status).toBe(200);
    expect(first.body.secret.length).toBeGreaterThanOrEqual(32);
    const rotated = await api(`${P}/rules/c1/hook-secret/rotate`, { token: t.admin, method: 'POST' });
    expect(rotated.body.secret).not.toBe(first.body.secret);
    expect((await api(`${P}/rules/c1/hook-secret`, { token: t.admin })).body.secret).toBe(rotated.body.secret);
  });
});

describe('runs', () => {
  it('execute answers the output message, with the run id whose log shows each node', async () => {
    await saved('exec', orders('exec'));
    const res = await execute('exec', { id: 'o1', amount: 500 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ orderId: 'o1', big: true });
    const runId = res.headers.get('x-run-id')!;
    expect(runId).toBeTruthy();
    const run = await eventually(
      () => api(`${P}/logs/runs/${runId}`, { token: t.admin }),
      (r) => r.status === 200 && r.body.status !== 'running',
    );
    expect(run.body).toMatchObject({
      id: runId,
      chainId: 'exec',
      chainName: 'Chain exec',
      success: true,
      errorMsg: '',
    });
    expect(run.body.trigger).toMatchObject({ kind: 'execute' });
    expect(run.body.chainVersion).toBe(1);
    expect(run.body.inMsg).toMatchObject({ type: 'ORDER', dataType: 'JSON' });
    expect(run.body.logs.map((l: any) => [l.nodeId, l.relationType])).toEqual([
      ['f', 'True'],
      ['t', 'Success'],
    ]);
    expect(run.body.endTs).toBeGreaterThanOrEqual(run.body.startTs);
    // The filter says False and nothing follows it: the message comes back as it went in.
    const small = await execute('exec', { id: 'o2', amount: 5 });
    expect(small.body).toEqual({ id: 'o2', amount: 5 });
    // A text body is a TEXT message; query parameters go into the metadata.
    await saved(
      'echo',
      chain('echo', [node('m', 'exprTransform', { mapping: { who: 'metadata.who', type: 'dataType', text: 'msg' } })]),
    );
    const text = await api(`${P}/rules/echo/execute/T?who=ann`, {
      token: t.admin,
      raw: 'hello',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    expect(text.body).toEqual({ who: 'ann', type: 'TEXT', text: 'hello' });
  });

  it('a run that fails answers 400 CHAIN_RUN_FAILED with the node, the reason and the run id', async () => {
    await saved('boom', chain('boom', [node('j', 'jsTransform', { jsScript: 'throw new Error("boom")' })]));
    const res = await execute('boom', { a: 1 });
    refused(res, 400, 40090);
    expect(res.body.data).toMatchObject({ nodeId: 'j' });
    expect(res.body.data.reason).toContain('boom');
    const run = await eventually(
      () => api(`${P}/logs/runs/${res.body.data.runId}`, { token: t.admin }),
      (r) => r.status === 200 && r.body.status === 'failed',
    );
    expect(run.body).toMatchObject({ success: false, errorNodeId: 'j' });
  });

  it('notify answers the run id at once; the run appears in the log', async () => {
    const res = await api(`${P}/rules/exec/notify/ORDER`, { token: t.alice, body: { id: 'n1', amount: 1000 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { runId } = res.body;
    const run = await eventually(
      () => api(`${P}/logs/runs/${runId}`, { token: t.admin }),
      (r) => r.status === 200 && r.body.status === 'succeeded',
    );
    expect(JSON.parse(run.body.outMsg.data)).toEqual({ orderId: 'n1', big: true });
    expect(run.body.trigger).toMatchObject({ kind: 'notify', userId: 'alice' });
    // RuleGo's list, by chain and time; `id` answers the run alone.
    const list = await api(`${P}/logs/runs?chainId=exec&startTime=${run.body.startTs}`, { token: t.admin });
    expect(list.body.items.map((i: any) => i.id)).toContain(runId);
    expect(list.body.items.every((i: any) => i.chainId === 'exec' && i.logs === null)).toBe(true);
    const before = await api(`${P}/logs/runs?chainId=exec&endTime=${run.body.startTs - 1}`, { token: t.admin });
    expect(before.body.items.map((i: any) => i.id)).not.toContain(runId);
    expect((await api(`${P}/logs/runs?id=${runId}`, { token: t.admin })).body.id).toBe(runId);
    // A time past year 9999 (the fuzzer's 863886648446424) is a 400, not a database error.
    const far = await api(`${P}/logs/runs?chainId=exec&startTime=863886648446424`, { token: t.admin });
    expect(far.status).toBe(400);
    const last = await api(`${P}/logs/runs?chainId=exec&startTime=253402300799999`, { token: t.admin });
    expect(last.status).toBe(200);
  });

  it('a stopped chain is refused; start brings it back; set-to-main is not supported', async () => {
    await saved('toggle', orders('toggle'));
    const stopped = await api(`${P}/rules/toggle/operate/stop`, { token: t.admin, method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(stopped.body.ruleChain.disabled).toBe(true);
    expect((await api(`${P}/rules/toggle`, { token: t.admin })).body.ruleChain.disabled).toBe(true);
    refused(await execute('toggle', { amount: 1 }), 409, 40980);
    refused(await api(`${P}/rules/toggle/notify/X`, { token: t.admin, body: {} }), 409, 40980);
    // A save keeps the state.
    await saved('toggle', orders('toggle'));
    expect((await api(`${P}/rules/toggle`, { token: t.admin })).body.ruleChain.disabled).toBe(true);
    expect((await api(`${P}/rules/toggle/operate/start`, { token: t.admin, method: 'POST' })).status).toBe(200);
    expect((await execute('toggle', { id: 'x', amount: 1 })).status).toBe(200);
    refused(await api(`${P}/rules/toggle/operate/set-to-main`, { token: t.admin, method: 'POST' }), 400, 40000);
    refused(await api(`${P}/rules/toggle/operate/other`, { token: t.admin, method: 'POST' }), 400, 40001);
    // A new chain saved with disabled: true starts stopped.
    await saved('born-stopped', orders('born-stopped', { disabled: true }));
    refused(await execute('born-stopped', {}), 409, 40980);
  });

  it('delete answers 204; the runs stay in the log until deleted', async () => {
    await saved('gone', orders('gone'));
    const runId = (await execute('gone', { id: 'g', amount: 1 })).headers.get('x-run-id')!;
    const del = await api(`${P}/rules/gone`, { token: t.admin, method: 'DELETE' });
    expect(del.status).toBe(204);
    refused(await api(`${P}/rules/gone`, { token: t.admin }), 404, 40400);
    await eventually(
      () => api(`${P}/logs/runs/${runId}`, { token: t.admin }),
      (r) => r.status === 200 && r.body.status !== 'running',
    );
    refused(await api(`${P}/logs/runs`, { token: t.admin, method: 'DELETE' }), 400, 40001);
    refused(await api(`${P}/logs/runs?id=${runId}`, { token: t.alice, method: 'DELETE' }), 403, 40300);
    expect((await api(`${P}/logs/runs?id=${runId}`, { token: t.admin, method: 'DELETE' })).status).toBe(204);
    refused(await api(`${P}/logs/runs/${runId}`, { token: t.admin }), 404, 40400);
    expect((await api(`${P}/logs/runs?chainId=exec`, { token: t.admin, method: 'DELETE' })).status).toBe(204);
    expect((await api(`${P}/logs/runs?chainId=exec`, { token: t.admin })).body.total).toBe(0);
  });

  it('another tenant sees and runs none of this tenant’s chains, runs or hooks', async () => {
    const runId = (await execute('c1', { id: 'i', amount: 1 })).headers.get('x-run-id')!;
    refused(await api(`${P}/rules/c1`, { token: other }), 404, 40400);
    refused(await execute('c1', {}, other), 404, 40400);
    refused(await api(`${P}/rules/c1/notify/X`, { token: other, body: {} }), 404, 40400);
    refused(await api(`${P}/rules/c1/versions`, { token: other }), 404, 40400);
    refused(await api(`${P}/rules/c1/hook-secret`, { token: other }), 404, 40400);
    refused(await api(`${P}/logs/runs/${runId}`, { token: other }), 404, 40400);
    expect((await api(`${P}/logs/runs?chainId=c1`, { token: other })).body.total).toBe(0);
    expect((await api(`${P}/rules?keywords=c1`, { token: other })).body.total).toBe(0);
    // The other tenant's own hook URL does not reach this tenant's chain.
    refused(await api(`${P}/hooks/${otherTenant}/c1/orders`, { token: other, body: {} }), 404, 40400);
    refused(await api(`${P}/hooks/${tenantId}/c1/orders`, { token: other, body: {} }), 404, 40400);
  });
});

describe('components and the document', () => {
  it('lists RuleGo component forms and the rulechain palette', async () => {
    const res = await api(`${P}/components`, { token: t.alice });
    expect(res.status).toBe(200);
    expect(res.body.tools).toBeNull();
    expect(res.body.builtins).toEqual({});
    const types = (res.body.nodes as any[]).map((n) => n.type);
    expect(types).toEqual(expect.arrayContaining(['jsFilter', 'exprTransform', 'restApiCall', 'flow', 'startProcess']));
    expect((res.body.endpoints as any[]).map((e) => e.type)).toEqual(
      expect.arrayContaining(['endpoint/http', 'endpoint/schedule']),
    );
    const zh = await api(`${P}/components`, { token: t.alice, headers: { 'Accept-Language': 'zh-CN' } });
    expect(JSON.stringify(zh.body.nodes)).not.toEqual(JSON.stringify(res.body.nodes));
  });

  it('/openapi.json has every route of the bridged API', async () => {
    const doc = (await api('/openapi.json')).body as any;
    const routes: Array<[string, string]> = [
      ['get', `${P}/rules`],
      ['get', `${P}/rules/{id}`],
      ['post', `${P}/rules/{id}`],
      ['delete', `${P}/rules/{id}`],
      ['post', `${P}/rules/{id}/operate/{type}`],
      ['get', `${P}/rules/{id}/versions`],
      ['get', `${P}/rules/{id}/hook-secret`],
      ['post', `${P}/rules/{id}/hook-secret/rotate`],
      ['post', `${P}/rules/{id}/execute/{msgType}`],
      ['post', `${P}/rules/{id}/notify/{msgType}`],
      ['get', `${P}/logs/runs`],
      ['get', `${P}/logs/runs/{id}`],
      ['delete', `${P}/logs/runs`],
      ['get', `${P}/components`],
      ['get', `${P}/skills`],
      ['post', `${P}/skills`],
      ['get', `${P}/skills/{name}`],
      ['put', `${P}/skills/{name}`],
      ['delete', `${P}/skills/{name}`],
      ['post', `${P}/hooks/{tenantId}/{chainId}/{path}`],
      ['get', `${P}/hooks/{tenantId}/{chainId}/{path}`],
      ['get', '/api/v1/skills'],
      ['post', '/api/v1/skills'],
      ['get', '/api/v1/skills/{name}'],
      ['put', '/api/v1/skills/{name}'],
      ['delete', '/api/v1/skills/{name}'],
    ];
    for (const [method, path] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        `${method} ${path}`,
      ).toBe(true);
    }
    expect(doc.paths[`${P}/rules/{id}`].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(doc.paths[`${P}/rules`].get.responses['200'].content['application/json'].schema).toBeDefined();
    expect(doc.paths[`${P}/rules/{id}`].get.responses['404'].content['application/json'].schema.$ref).toContain(
      'RuleGoError',
    );
  });
});
