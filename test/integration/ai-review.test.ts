// AI pre-review (docs/ai-review.md) over real HTTP, a real Temporal server and a real model
// protocol: an OpenAI-compatible chat-completions server inside this test (test/helpers/model-server.ts)
// answers from a script chosen by the `SCENARIO:<name>` the node's customPrompt puts into the prompt.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant, expectError } from '../helpers/api.js';
import { PNG, pdfWithText, upload } from '../helpers/attachments.js';
import { act, actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';
import { graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { startModelServer, type ModelScript, type ModelServer } from '../helpers/model-server.js';
import { temporalClient } from '../helpers/temporal.js';

const AGENTS = '/api/v1/ai-agents';
const INSTANCES = '/api/v1/workflow/process-instances';
const API_KEY = 'sk-test-7f3a9c2e-never-shown';

const client = temporalClient();
let t: Record<string, string>;
let tenantId: string;
let model: ModelServer;
let n = 0;
const key = () => `ai${++n}`;

const scripts: Record<string, ModelScript> = {
  pass: { answers: ['The amount is within the travel budget and the receipts match.\nAI_DECISION: PASS'] },
  reject: { answers: ['Hotel over the city limit by 40%.\nAI_DECISION: REJECT'] },
  starter: { answers: ['The cost centre is missing.\nAI_DECISION: REJECT'] },
  unclear: { answers: ['I cannot tell from the receipts whether this is allowed.'] },
  unclear2: { answers: ['Maybe. AI_DECISION: PASS or AI_DECISION: REJECT, depending on policy.'] },
  chinese: { answers: ['金额在预算内。\n裁决：通过'] },
  slow: { answers: ['AI_DECISION: PASS'], delayMs: 4000 },
  async: { answers: ['Noted for the record.'], delayMs: 1500 },
  json: {
    answers: ['```json\n{"risk":"low","score":7,"nested":{"limit":500}}\n```\nLooks fine.\nAI_DECISION: PASS'],
  },
  echoKey: { answers: [401] },
  files: { answers: ['The receipt and the invoice match.\nAI_DECISION: PASS'] },
};
const aiNode = (scenario: string, config: Record<string, unknown> = {}) =>
  node(
    'ai',
    'aiAgent',
    { agentId: 'precheck', inputAssembly: { customPrompt: `SCENARIO:${scenario} Review \${msg.title}` }, ...config },
    'AI pre-check',
  );

/** start → ai → bob's review → end (plus what `extra` adds). */
const aiDoc = (k: string, ai: unknown, extraNodes: unknown[] = [], extraWires = '') =>
  doc(
    k,
    [node('s', 'startTask'), ai, user('review', ['bob']), ...extraNodes, node('end', 'end')],
    wire(`s>ai ai>review review>end ${extraWires}`.trim()),
  );

const trailOf = async (id: string, type: string) =>
  ((await instance(t.admin, id)).trail as any[]).filter((e) => e.type === type);
const reviewEntry = (id: string) =>
  eventually(
    () => trailOf(id, 'ai_review'),
    (x) => x.length > 0,
    30_000,
  ).then((x) => x.at(-1));
const openTasks = async (id: string) =>
  (
    (await api(`/api/v1/workflow/tasks?instanceId=${id}&pageSize=100`, { token: t.admin })).body.data.items as any[]
  ).filter((x) => ['active', 'pending'].includes(x.status));
const run = async (d: any, variables: Record<string, unknown> = { title: 'Trip to Berlin', amount: 1200 }) => {
  await deploy(t.admin, d);
  return start(t.alice, d.ruleChain.id, variables);
};

beforeAll(async () => {
  const tenant = await createDemoLikeTenant('ai');
  t = tenant.tokens;
  tenantId = tenant.tenantId;
  model = await startModelServer(scripts);
  const res = await api(AGENTS, {
    token: t.admin,
    body: {
      agentId: 'precheck',
      name: 'Expense pre-check',
      baseUrl: model.baseUrl,
      model: 'test-model',
      systemPrompt: 'You pre-review expense claims.',
      temperature: 0,
      apiKey: API_KEY,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(() => model?.close());

describe('the agents catalogue', () => {
  it('never answers the API key, refuses bad input and non-admins, 404 for an unknown agent', async () => {
    const one = await api(`${AGENTS}/precheck`, { token: t.admin });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ agentId: 'precheck', model: 'test-model', hasApiKey: true });
    const list = await api(AGENTS, { token: t.bob });
    expect(list.status).toBe(200);
    expect(JSON.stringify([one.body, list.body])).not.toContain(API_KEY);
    expect(list.body.data.items.map((a: any) => a.agentId)).toEqual(['precheck']);
    expectError(await api(`${AGENTS}/nobody`, { token: t.admin }), 404, 40400);
    expectError(
      await api(AGENTS, { token: t.bob, body: { agentId: 'x', baseUrl: 'http://a', model: 'm' } }),
      403,
      40300,
    );
    expectError(
      await api(AGENTS, { token: t.admin, body: { agentId: 'x', baseUrl: 'ftp://a', model: 'm' } }),
      400,
      40001,
    );
    expectError(
      await api(AGENTS, { token: t.admin, body: { agentId: 'precheck', baseUrl: 'http://a', model: 'm' } }),
      409,
      40903,
    );
    // A PUT without apiKey keeps it.
    const put = await api(`${AGENTS}/precheck`, {
      method: 'PUT',
      token: t.admin,
      body: {
        baseUrl: model.baseUrl,
        model: 'test-model',
        systemPrompt: 'You pre-review expense claims.',
        temperature: 0,
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.hasApiKey).toBe(true);
  });

  it('deploy refuses an unknown agentId with 422 naming the node; delete is refused while an active definition uses the agent', async () => {
    const k = key();
    const res = await api('/api/v1/workflow/process-definitions/deploy', {
      token: t.admin,
      body: { dsl: aiDoc(k, node('ai', 'aiAgent', { agentId: 'ghost' })) },
    });
    expect(res.status).toBe(422);
    expect(res.body.data.problems).toContainEqual(
      expect.objectContaining({
        nodeId: 'ai',
        field: 'configuration.agentId',
        code: 'node.agentUnknown',
        params: { agentId: 'ghost' },
      }),
    );
    await deploy(t.admin, aiDoc(k, aiNode('pass')));
    const del = await api(`${AGENTS}/precheck`, { method: 'DELETE', token: t.admin });
    expectError(del, 409, 40906);
    expect(del.body.data.definitions[0].key).toBe(k);
  });
});

describe('verdicts', () => {
  it('PASS goes on; the trail records the verdict and summary as codes; the model got the prompt, key and protocol', async () => {
    const id = await run(aiDoc(key(), aiNode('pass', { decision: {} })));
    const tasks = await eventually(
      () => openTasks(id),
      (x) => x.length === 1,
      30_000,
    );
    expect(tasks[0]).toMatchObject({ activityId: 'review', assignee: 'bob' });
    const entry = await reviewEntry(id);
    expect(entry).toMatchObject({
      activityId: 'ai',
      // Codes in history: the console words it; the comment is the English sentence of the code.
      code: 'ai.review',
      params: {
        verdict: 'PASS',
        agentId: 'precheck',
        summary: 'The amount is within the travel budget and the receipts match.',
      },
      comment: 'AI pre-review (precheck): PASS — The amount is within the travel budget and the receipts match.',
      detail: {
        code: 'ai.pass',
        verdict: 'PASS',
        agentId: 'precheck',
        summary: 'The amount is within the travel budget and the receipts match.',
        model: 'test-model',
        reused: false,
      },
    });
    const call = model.received.pass.at(-1)!;
    expect(call.auth).toBe(`Bearer ${API_KEY}`);
    expect(call.body).toMatchObject({ model: 'test-model', temperature: 0, stream: false });
    expect(call.body.messages[0]).toEqual({ role: 'system', content: 'You pre-review expense claims.' });
    const prompt: string = call.body.messages[1].content;
    expect(prompt).toContain('SCENARIO:pass Review Trip to Berlin');
    expect(prompt).toContain('"amount":1200');
    expect(prompt).toContain('"owner":"alice"');
    expect(
      prompt
        .trim()
        .endsWith(
          'AI_DECISION: REJECT (PASS = let it through, REJECT = refuse it). Keep the rest of your answer in the format you would otherwise use.',
        ),
    ).toBe(true);
    expect((await instance(t.admin, id)).variables._ai).toBe(
      'The amount is within the travel budget and the receipts match.\nAI_DECISION: PASS',
    );
  });

  it('a Chinese verdict (裁决：通过) passes', async () => {
    const id = await run(aiDoc(key(), aiNode('chinese', { decision: {} })));
    expect((await reviewEntry(id)).detail.verdict).toBe('PASS');
    await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
  });

  it('REJECT with terminate ends the instance rejected', async () => {
    const id = await run(aiDoc(key(), aiNode('reject', { decision: { rejectStrategy: 'terminate' } })));
    const inst = await eventually(
      () => instance(t.admin, id),
      (i) => i.status !== 'active',
      30_000,
    );
    expect(inst.status).toBe('rejected');
    expect(inst).toMatchObject({
      endCode: 'end.aiRejected',
      endParams: { nodeId: 'ai', nodeName: 'AI pre-check' },
      endReason: 'Rejected by the AI pre-review at AI pre-check',
    });
    expect((await reviewEntry(id)).detail).toMatchObject({
      code: 'ai.reject',
      summary: 'Hotel over the city limit by 40%.',
    });
  });

  it('REJECT with toStarter sends it back to the initiator; resubmitted unchanged, the model is not asked again', async () => {
    const id = await run(aiDoc(key(), aiNode('starter', { decision: { rejectStrategy: 'toStarter' } })));
    const first = await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.kind === 'resubmit'),
      30_000,
    );
    expect(first[0]).toMatchObject({ assignee: 'alice', activityId: 's' });
    expect(model.received.starter).toHaveLength(1);
    await actOk(t.alice, first[0].id, 'complete');
    const second = await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.kind === 'resubmit' && y.id !== first[0].id),
      30_000,
    );
    const reviews = await trailOf(id, 'ai_review');
    expect(reviews.map((e) => [e.detail.verdict, e.detail.reused])).toEqual([
      ['REJECT', false],
      ['REJECT', true],
    ]);
    expect(model.received.starter).toHaveLength(1);
    // Changed input → a new call.
    await actOk(t.alice, second.find((y) => y.kind === 'resubmit')!.id, 'complete', {
      variables: { title: 'Trip to Bonn' },
    });
    await eventually(
      () => trailOf(id, 'ai_review'),
      (x) => x.length === 3,
      30_000,
    );
    expect(model.received.starter).toHaveLength(2);
  });

  it('an unclear answer goes to the failureHandler: approved → on, rejected → the reject strategy', async () => {
    const a = await run(aiDoc(key(), aiNode('unclear', { decision: {}, failureHandler: ['carol'] })));
    const task = await eventually(
      () => openTasks(a),
      (x) => x.length === 1,
      30_000,
    );
    expect(task[0]).toMatchObject({ assignee: 'carol', activityId: 'ai', name: 'AI pre-check' });
    expect((await reviewEntry(a)).detail.verdict).toBe('UNRESOLVED');
    await actOk(t.carol, task[0].id, 'approve', { comment: 'checked by hand' });
    await eventually(
      () => openTasks(a),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
    expect((await reviewEntry(a)).detail).toMatchObject({ code: 'ai.human_pass', by: 'carol' });

    // A repeated protocol text is no verdict either.
    const b = await run(
      aiDoc(key(), aiNode('unclear2', { decision: { rejectStrategy: 'terminate' }, failureHandler: ['carol'] })),
    );
    const other = await eventually(
      () => openTasks(b),
      (x) => x.length === 1,
      30_000,
    );
    await actOk(t.carol, other[0].id, 'reject', { comment: 'not allowed' });
    const inst = await eventually(
      () => instance(t.admin, b),
      (i) => i.status !== 'active',
      30_000,
    );
    expect(inst.status).toBe('rejected');
    expect((await reviewEntry(b)).detail.code).toBe('ai.human_reject');
  });

  it('unresolved: pass lets it through marked; reject rejects', async () => {
    const a = await run(aiDoc(key(), aiNode('unclear', { decision: { unresolved: 'pass' } })));
    await eventually(
      () => openTasks(a),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
    expect((await reviewEntry(a)).detail.verdict).toBe('UNRESOLVED');
    const b = await run(aiDoc(key(), aiNode('unclear', { decision: { unresolved: 'reject' } })));
    expect(
      (
        await eventually(
          () => instance(t.admin, b),
          (i) => i.status !== 'active',
          30_000,
        )
      ).status,
    ).toBe('rejected');
  });

  it('a call that times out (after its retries) goes to the failureHandler', async () => {
    const id = await run(aiDoc(key(), aiNode('slow', { decision: {}, timeoutSec: 1, failureHandler: ['carol'] })));
    const task = await eventually(
      () => openTasks(id),
      (x) => x.length === 1,
      45_000,
    );
    expect(task[0].assignee).toBe('carol');
    expect((await reviewEntry(id)).detail.code).toBe('ai.failed');
    expect(model.received.slow.length).toBe(3); // the activity's three attempts
    await actOk(t.carol, task[0].id, 'approve');
    await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
  });

  it('async: the path does not wait for the model', async () => {
    const id = await run(aiDoc(key(), aiNode('async', { async: true, decision: {} })));
    await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
    expect((await reviewEntry(id)).detail.code).toBe('ai.async');
    // The call is still made, without the verdict protocol.
    const call = await eventually(
      async () => model.received.async?.at(-1),
      (c) => c !== undefined,
      30_000,
    );
    expect(call!.body.messages[1].content).not.toContain('AI_DECISION');
  });

  it('output mappings and flatten: the JSON object in the answer is kept under _ai, merged and mapped', async () => {
    const id = await run(
      aiDoc(
        key(),
        aiNode('json', {
          decision: {},
          flattenOutput: true,
          outputMappings: [{ from: '$.nested.limit', to: 'aiLimit' }],
        }),
      ),
    );
    await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
    const vars = (await instance(t.admin, id)).variables;
    expect(vars).toMatchObject({
      _ai: { risk: 'low', score: 7, nested: { limit: 500 } },
      risk: 'low',
      score: 7,
      aiLimit: 500,
      title: 'Trip to Berlin',
    });
    // Without flatten (GFlow's default) only _ai and the mappings.
    const other = await run(aiDoc(key(), aiNode('json', { outputMappings: [{ from: 'risk', to: 'aiRisk' }] })));
    await eventually(
      () => openTasks(other),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
    const v2 = (await instance(t.admin, other)).variables;
    expect(v2.aiRisk).toBe('low');
    expect(v2.score).toBeUndefined();
  });

  it('a failed call without failureHandler fails the instance; the API key is in no answer, error or history', async () => {
    const id = await run(aiDoc(key(), aiNode('echoKey', { decision: {} })));
    const inst = await eventually(
      () => instance(t.admin, id),
      (i) => i.status === 'failed',
      30_000,
    );
    expect(inst.failure.reason).toContain('answered 401');
    expect(inst.failure.reason).toContain('Bearer ***');
    expect(model.received.echoKey.at(-1)!.auth).toBe(`Bearer ${API_KEY}`); // the server did get it
    const detail = await api(`${INSTANCES}/${id}/detail`, { token: t.admin });
    const stuck = await api(`${INSTANCES}/stuck?pageSize=200`, { token: t.admin });
    expect(JSON.stringify([inst, detail.body, stuck.body])).not.toContain(API_KEY);
    const history = await client.workflow.getHandle(`approval-${tenantId}-${id}`).fetchHistory();
    const text = JSON.stringify(history);
    expect(text).toContain('Bearer ***');
    expect(text).not.toContain(API_KEY);
  });
});

describe('attachments as context', () => {
  it('contextSources.attachments sends the images as image parts and the text of PDFs and text files, naming each file', async () => {
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        node(
          'ai',
          'aiAgent',
          {
            agentId: 'precheck',
            decision: {},
            inputAssembly: {
              customPrompt: 'SCENARIO:files Review ${msg.title}',
              contextSources: { attachments: true },
            },
          },
          'AI pre-check',
        ),
        user('review', ['bob']),
        node('end', 'end'),
      ],
      wire('s>ai ai>review review>end'),
      {
        formType: 'design',
        form: {
          fields: [
            { name: 'title', type: 'text' },
            { name: 'files', type: 'attachment', multiple: true },
          ],
        },
      },
    );
    await deploy(t.admin, d);
    const files = [
      [PNG, 'receipt.png'],
      [pdfWithText('Invoice 42'), 'invoice.pdf'],
      [Buffer.from('Hotel: 3 nights, breakfast included.\n'), 'notes.txt'],
      [Buffer.alloc(64, 0), 'data.bin'],
    ] as const;
    const ids: string[] = [];
    for (const [bytes, name] of files) {
      const up = await upload(baseUrl(), t.alice!, bytes, name);
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      ids.push(up.body.data.id);
    }
    const id = await start(t.alice, k, { title: 'Trip to Paris', files: ids });
    expect((await reviewEntry(id)).detail).toMatchObject({ verdict: 'PASS', reused: false });

    // With images the user message is a list of parts (the test server's SCENARIO look-up reads a
    // string only, so this call lands in its fallback: found by its image part).
    const call = Object.values(model.received)
      .flat()
      .find((c) => JSON.stringify(c.body.messages).includes(`data:image/png;base64,${PNG.toString('base64')}`));
    expect(call, 'the model server got the PNG as an image part').toBeDefined();
    const parts: any[] = call!.body.messages[1].content;
    expect(parts[0].type).toBe('text');
    expect(parts[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` },
    });
    expect(parts.filter((p) => p.type === 'image_url')).toHaveLength(1);
    const text: string = parts[0].text;
    expect(text).toContain('SCENARIO:files Review Trip to Paris');
    expect(text).toContain('## Attachments');
    expect(text).toMatch(/- receipt\.png \(image\/png, \d+ B\): image 1 below/);
    expect(text).toMatch(/- invoice\.pdf \(application\/pdf, [\d.]+ K?B\): text below/);
    expect(text).toContain('### invoice.pdf\nInvoice 42');
    expect(text).toContain('### notes.txt\nHotel: 3 nights, breakfast included.');
    expect(text).toMatch(
      /- data\.bin \(application\/octet-stream, 64 B\): not sent \(not an image, a PDF or a text document\)/,
    );
    // The verdict protocol stays last.
    expect(parts.at(-1)).toEqual({ type: 'text', text: expect.stringMatching(/^---\n\nThis request comes from/) });
  });

  it('without the switch no file goes to the model', async () => {
    const k = key();
    const up = await upload(baseUrl(), t.alice!, PNG, 'photo.png');
    const d = doc(
      k,
      [node('s', 'startTask'), aiNode('pass'), user('review', ['bob']), node('end', 'end')],
      wire('s>ai ai>review review>end'),
      {
        formType: 'design',
        form: {
          fields: [
            { name: 'title', type: 'text' },
            { name: 'photo', type: 'attachment' },
          ],
        },
      },
    );
    await deploy(t.admin, d);
    const id = await start(t.alice, k, { title: 'No files please', photo: up.body.data.id });
    await reviewEntry(id);
    const call = model.received.pass.find((c) => JSON.stringify(c.body).includes('No files please'))!;
    expect(typeof call.body.messages[1].content).toBe('string');
    expect(call.body.messages[1].content).not.toContain('## Attachments');
  });
});

describe('httpCall like GFlow', () => {
  it('a case on msg._http.<field> routes on the answer object; a non-object answer is kept as text', async () => {
    const receiver = await startReceiver((req, _body, res) => {
      if (req.url === '/risk')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"riskLevel":"high"}');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK fine');
    });
    try {
      const k = key();
      const id = await run(
        doc(
          k,
          [
            node('s', 'startTask'),
            node('risk', 'httpCall', { url: `http://localhost:${receiver.port}/risk`, flattenOutput: false }),
            node('ping', 'httpCall', { url: `http://localhost:${receiver.port}/ping`, reservedKey: '_ping' }),
            node('route', 'switch', { cases: [{ case: "msg._http.riskLevel == 'high'", then: 'high' }] }),
            user('low', ['bob']),
            user('high', ['carol']),
            node('end', 'end'),
          ],
          wire('s>risk risk>ping ping>route route>high:high route>low:Default low>end high>end'),
        ),
      );
      const task = await eventually(
        () => openTasks(id),
        (x) => x.length === 1,
        30_000,
      );
      expect(task[0]).toMatchObject({ activityId: 'high', assignee: 'carol' });
      const vars = (await instance(t.admin, id)).variables;
      expect(vars).toMatchObject({
        _http: { riskLevel: 'high' },
        _httpStatus: 200,
        _ping: 'OK fine',
        _pingStatus: 200,
      });
      expect(vars.riskLevel).toBeUndefined(); // flattenOutput false
    } finally {
      await receiver.close();
    }
  });
});

describe('re-drive', () => {
  it('a failed call is called again on re-drive', async () => {
    scripts.flaky = { answers: [500, 500, 500, 'AI_DECISION: PASS'] };
    const id = await run(aiDoc(key(), aiNode('flaky', { decision: {} })));
    await eventually(
      () => instance(t.admin, id),
      (i) => i.status === 'failed',
      30_000,
    );
    expect(model.received.flaky).toHaveLength(3);
    const res = await api(`${INSTANCES}/${id}/re-drive`, { token: t.admin, body: { reason: 'model back' } });
    expect(res.status).toBe(200);
    await eventually(
      () => openTasks(id),
      (x) => x.some((y) => y.activityId === 'review'),
      30_000,
    );
    expect(model.received.flaky).toHaveLength(4);
    expect((await act(t.bob, (await myTask(t.bob, id)).id, 'approve')).status).toBe(200);
  });
});

describe("the tenant's private-address allowlist", () => {
  const ALLOWLIST = '/api/v1/network-allowlist';
  /** A private, non-loopback address of this machine (an RFC 1918 or unique-local IPv6 one). */
  function privateAddress(): { address: string; family: 4 | 6 } {
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) {
        if (a.internal) continue;
        if (a.family === 'IPv6' && /^f[cd]/i.test(a.address)) return { address: a.address, family: 6 };
        if (a.family === 'IPv4' && /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(a.address))
          return { address: a.address, family: 4 };
      }
    throw new Error('this machine has no private, non-loopback address to test against');
  }

  it('is managed by a tenant admin: replaced as a whole, bad entries 400, non-admins 403', async () => {
    expect((await api(ALLOWLIST, { token: t.admin })).body.data).toEqual({ entries: [] });
    expectError(await api(ALLOWLIST, { method: 'PUT', token: t.bob, body: { entries: [] } }), 403, 40300);
    for (const entry of ['10.0.0.0/33', 'http://x', '*.', 'a b', ''])
      expectError(await api(ALLOWLIST, { method: 'PUT', token: t.admin, body: { entries: [{ entry }] } }), 400, 40001);
    const put = await api(ALLOWLIST, {
      method: 'PUT',
      token: t.admin,
      body: { entries: [{ entry: 'ERP.intranet.example', description: 'ERP' }, { entry: '10.20.0.0/16' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.entries.map((e: any) => [e.entry, e.description, e.createdBy])).toEqual([
      ['10.20.0.0/16', null, 'admin'],
      ['erp.intranet.example', 'ERP', 'admin'],
    ]);
    const cleared = await api(ALLOWLIST, { method: 'PUT', token: t.admin, body: { entries: [] } });
    expect(cleared.body.data.entries).toEqual([]);
  });

  it('lets httpCall reach an allowed private address; a node’s allowedHosts alone does not; loopback stays refused', async () => {
    const { address, family } = privateAddress();
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"stock":3}');
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    const port = (server.address() as AddressInfo).port;
    const host = family === 6 ? `[${address}]` : address;
    try {
      const httpDoc = (k: string, url: string, extra: Record<string, unknown> = {}) =>
        doc(
          k,
          [
            node('s', 'startTask'),
            node('h', 'httpCall', { url, ...extra }),
            user('ok', ['bob']),
            user('failed', ['carol']),
            node('end', 'end'),
          ],
          wire('s>h h>ok h>failed:Failure ok>end failed>end'),
        );
      const landed = async (id: string) =>
        (
          await eventually(
            () => openTasks(id),
            (x) => x.length === 1,
            30_000,
          )
        )[0].activityId as string;
      const k1 = key();
      // Refused: private, and the node's allowedHosts is no trust of its own.
      const a = await run(httpDoc(k1, `http://${host}:${port}/a`, { allowedHosts: [address] }));
      expect(await landed(a)).toBe('failed');
      expect(((await instance(t.admin, a)).trail as any[]).map((e) => e.comment ?? '').join('\n')).toContain(
        "tenant's network allowlist",
      );
      expect(hits).toEqual([]);

      // Loopback is never the tenant's to open: naming it refuses the whole list (422, nothing stored).
      const refused = await api(ALLOWLIST, {
        method: 'PUT',
        token: t.admin,
        body: { entries: [{ entry: family === 6 ? `${address}/64` : `${address}/32` }, { entry: '127.0.0.0/8' }] },
      });
      expectError(refused, 422, 42280);
      expect((await api(ALLOWLIST, { token: t.admin })).body.data.entries).toEqual([]);
      await api(ALLOWLIST, {
        method: 'PUT',
        token: t.admin,
        body: { entries: [{ entry: family === 6 ? `${address}/64` : `${address}/32` }] },
      });
      const b = await start(t.alice, k1, {});
      expect(await landed(b)).toBe('ok');
      expect((await instance(t.admin, b)).variables).toMatchObject({ stock: 3, _http: { stock: 3 } });
      expect(hits).toEqual(['/a']);

      // Loopback is never the tenant's to allow (127.0.0.1; the test stack's operator allows only the name localhost).
      const c = await run(httpDoc(key(), `http://127.0.0.1:${port}/loop`));
      expect(await landed(c)).toBe('failed');
      expect(hits).toEqual(['/a']);
    } finally {
      await api(ALLOWLIST, { method: 'PUT', token: t.admin, body: { entries: [] } });
      await new Promise((r) => server.close(r));
    }
  });
});
