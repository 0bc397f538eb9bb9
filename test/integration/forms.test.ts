// Stored forms (docs/forms.md): CRUD and versions, validation on save, pinning at deploy, values
// checked at start / submit-draft / set-variables, and the pinned form in the instance detail.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { processDoc, users } from '../helpers/dsl.js';
import { deploy, myTask, start } from '../helpers/flow.js';

const base = '/api/v1/forms';
const startUrl = '/api/v1/workflow/process-instances/start';
const defs = '/api/v1/workflow/process-definitions';

let t: Record<string, string>;
let seq = 0;
const key = (p = 'f') => `${p}_${Date.now().toString(36)}_${++seq}`;

/** A leave form with most field types. */
const leaveSchema = (extra: unknown[] = []) => ({
  title: 'Leave',
  columns: 2,
  sections: [{ id: 'main', title: 'Request' }],
  fields: [
    { name: 'days', label: 'Days', type: 'number', required: true, min: 0.5, max: 30, layout: { section: 'main' } },
    {
      name: 'kind',
      label: 'Kind',
      type: 'select',
      required: true,
      options: ['annual', { value: 'sick', label: 'Sick' }],
    },
    { name: 'from', label: 'From', type: 'date', min: '2020-01-01' },
    { name: 'reason', label: 'Reason', type: 'textarea', max: 200 },
    { name: 'code', label: 'Code', type: 'text', pattern: '[A-Z]{2}-\\d+' },
    { name: 'tags', label: 'Tags', type: 'multi-select', options: ['a', 'b', 'c'], max: 2 },
    { name: 'cost', label: 'Cost', type: 'money', min: 0 },
    { name: 'paid', label: 'Paid', type: 'boolean', default: true },
    { name: 'backup', label: 'Backup', type: 'user' },
    { name: 'dept', label: 'Department', type: 'department' },
    { name: 'at', label: 'At', type: 'datetime' },
    { name: 'files', label: 'Files', type: 'attachment', multiple: true },
    { name: 'hrNote', label: 'HR note', type: 'text' },
    ...extra,
  ],
});

async function createForm(formKey: string, schema: unknown = leaveSchema(), token = t.admin) {
  const res = await api(base, { token, body: { key: formKey, name: `Form ${formKey}`, category: 'HR', schema } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function publish(id: string, token = t.admin) {
  const res = await api(`${base}/${id}/publish`, { token, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** start → bob approves → end; the process uses the stored form `formKey`. */
function processWith(processKey: string, formKey: string, info: Record<string, unknown> = {}, cases?: string) {
  const nodes: unknown[] = [
    {
      id: 'approve',
      type: 'userTask',
      name: 'Approve',
      configuration: users('bob'),
      additionalInfo: { formPermissions: { hrNote: 'h', days: 'r', reason: 'w' } },
    },
  ];
  const edges: Array<[string, string, string?]> = [
    ['start', cases ? 'route' : 'approve'],
    ['approve', 'end'],
  ];
  if (cases) {
    nodes.push({ id: 'route', type: 'switch', name: 'Route', configuration: { cases: [{ case: cases, then: 'go' }] } });
    edges.push(['route', 'approve', 'go'], ['route', 'end', 'Default']);
  }
  return processDoc(
    { id: processKey, name: `P ${processKey}`, additionalInfo: { formType: 'system', formKey, ...info } },
    nodes,
    edges,
  );
}

beforeAll(async () => {
  const demo = await createDemoLikeTenant('forms');
  t = demo.tokens;
  // A form designer: only the form permission (and reading definitions).
  const role = await api('/api/v1/roles', {
    token: t.admin,
    body: { code: 'form_designer', permissions: ['workflow:form:manage'] },
  });
  expect(role.status).toBe(201);
  const user = await api('/api/v1/users', {
    token: t.admin,
    body: { id: 'fiona', username: 'fiona', password: 'pw-fiona', roles: ['form_designer'] },
  });
  expect(user.status).toBe(201);
  const login = await api('/api/v1/auth/login', {
    body: { username: 'fiona', password: 'pw-fiona', tenantId: demo.tenantId },
  });
  t.fiona = login.body.data.accessToken;
});

describe('forms CRUD and versions', () => {
  it('create, get, list, update a draft, publish versions, read by key and versions, retire', async () => {
    const k = key();
    const draft = await createForm(k, leaveSchema(), t.fiona);
    expect(draft).toMatchObject({ key: k, version: null, status: 'draft', category: 'HR', createdBy: 'fiona' });
    expect((await api(`${base}/${draft.id}`, { token: t.alice })).body.data.schema.fields).toHaveLength(13);

    const renamed = await api(`${base}/${draft.id}`, { method: 'PATCH', token: t.fiona, body: { name: 'Leave v1' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Leave v1');
    // Not published yet: no latest version.
    expect((await api(`${base}/key/${k}`, { token: t.alice })).status).toBe(404);

    const v1 = await publish(draft.id, t.fiona);
    expect(v1).toMatchObject({ version: 1, status: 'published' });
    expect(v1.publishedAt).toEqual(expect.any(String));

    const second = await createForm(k, leaveSchema([{ name: 'extra', type: 'text' }]), t.fiona);
    const v2 = await publish(second.id, t.fiona);
    expect(v2.version).toBe(2);

    const latest = await api(`${base}/key/${k}`, { token: t.alice });
    expect(latest.status).toBe(200);
    expect(latest.body.data).toMatchObject({ id: second.id, version: 2 });
    const versions = await api(`${base}/key/${k}/versions`, { token: t.alice });
    expect(versions.body.data.items.map((f: any) => f.version)).toEqual([2, 1]);
    // Earlier versions stay readable.
    expect((await api(`${base}/${draft.id}`, { token: t.alice })).body.data.version).toBe(1);

    const list = await api(`${base}?key=${k}&pageSize=1`, { token: t.alice });
    expect(list.body.data).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect((await api(`${base}?name=${encodeURIComponent('Leave v1')}`, { token: t.alice })).body.data.total).toBe(1);
    expect((await api(`${base}?category=HR&key=${k}`, { token: t.alice })).body.data.total).toBe(2);

    const retired = await api(`${base}/${second.id}/retire`, { token: t.fiona, body: {} });
    expect(retired.body.data.status).toBe('retired');
    // The latest published one is version 1 again.
    expect((await api(`${base}/key/${k}`, { token: t.alice })).body.data.version).toBe(1);
  });

  it('refusals: no login, no permission, not a draft, unknown ids, bad body, other tenants', async () => {
    const k = key();
    expect((await api(base)).status).toBe(401);
    const denied = await api(base, { token: t.alice, body: { key: k, name: 'x', schema: { fields: [] } } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(40300);
    const draft = await createForm(k);
    expect((await api(`${base}/${draft.id}/publish`, { token: t.alice, body: {} })).status).toBe(403);
    expect((await api(`${base}/${draft.id}`, { method: 'DELETE', token: t.alice })).status).toBe(403);
    expect((await api(`${base}/${draft.id}/retire`, { token: t.admin, body: {} })).status).toBe(409);
    const v1 = await publish(draft.id);
    const notDraft = await api(`${base}/${v1.id}`, { method: 'PATCH', token: t.admin, body: { name: 'y' } });
    expect(notDraft.status).toBe(409);
    expect(notDraft.body.code).toBe(40905);
    expect((await api(`${base}/${v1.id}/publish`, { token: t.admin, body: {} })).status).toBe(409);
    expect((await api(`${base}/${v1.id}`, { method: 'DELETE', token: t.admin })).status).toBe(409);
    expect((await api(`${base}/nope`, { token: t.alice })).status).toBe(404);
    expect((await api(`${base}/key/nope/versions`, { token: t.alice })).status).toBe(404);
    const unknownField = await api(base, { token: t.admin, body: { key: k, name: 'x', schema: {}, color: 'red' } });
    expect(unknownField.status).toBe(400);
    expect((await api(base, { token: t.admin, body: { key: '', name: 'x', schema: {} } })).status).toBe(400);
    // Another tenant sees none of it.
    const other = await createDemoLikeTenant('forms-other');
    expect((await api(`${base}/${v1.id}`, { token: other.tokens.admin })).status).toBe(404);
    expect((await api(`${base}/key/${k}`, { token: other.tokens.admin })).status).toBe(404);
    // A draft can be deleted.
    const d2 = await createForm(k);
    expect((await api(`${base}/${d2.id}`, { method: 'DELETE', token: t.admin })).status).toBe(200);
    expect((await api(`${base}/${d2.id}`, { token: t.admin })).status).toBe(404);
  });

  it('a schema that does not validate is 422 naming the field, on create and on update', async () => {
    const bad = async (schema: unknown, field: string) => {
      const res = await api(base, { token: t.admin, body: { key: key(), name: 'bad', schema } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.code).toBe(42250);
      expect(res.body.data.problems.map((p: any) => p.field)).toContain(field);
      expect(res.body.message).toContain(field);
    };
    await bad({ fields: [{ name: 'a', type: 'colour' }] }, 'schema.fields[0].type');
    await bad({ fields: [{ name: '1a', type: 'text' }] }, 'schema.fields[0].name');
    await bad({ fields: [{ name: 'a', type: 'select' }] }, 'schema.fields[0].options');
    await bad({ fields: [{ name: 'a', type: 'text' }, { name: 'a' }] }, 'schema.fields[1].name');
    await bad({ fields: [{ name: 'a', type: 'text', pattern: '(' }] }, 'schema.fields[0].pattern');
    await bad({ fields: [{ name: 'a', type: 'number', min: 5, max: 1 }] }, 'schema.fields[0].min');
    await bad({ fields: [{ name: 'a', type: 'date', min: 'yesterday' }] }, 'schema.fields[0].min');
    await bad({ fields: [{ name: 'a', type: 'number', default: 'x' }] }, 'schema.fields[0].default');
    await bad({ fields: [{ name: 'a', layout: { section: 'nowhere' } }] }, 'schema.fields[0].layout.section');
    await bad({ fields: [{ name: 'a', colour: 'red' }] }, 'schema.fields[0]');
    const draft = await createForm(key());
    const res = await api(`${base}/${draft.id}`, {
      method: 'PATCH',
      token: t.admin,
      body: { schema: { fields: [{ name: 'x', type: 'boolean', min: 1 }] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.data.problems[0].field).toBe('schema.fields[0].min');
    // Nothing was written.
    expect((await api(`${base}/${draft.id}`, { token: t.admin })).body.data.schema.fields).toHaveLength(13);
  });
});

describe('processes with a stored form', () => {
  it('deploy pins the latest published version; a later version does not change running instances', async () => {
    const fk = key();
    const pk = key('p');
    const v1 = await publish((await createForm(fk)).id);
    const def = await deploy(t.admin, processWith(pk, fk));
    expect(def.dsl.ruleChain.additionalInfo.formVersion).toBe(1);
    expect(def.dsl.ruleChain.additionalInfo.form.fields).toHaveLength(13);
    const id = await start(t.alice, pk, { days: 2, kind: 'annual', reason: 'rest', hrNote: 'secret' });

    // Version 2 of the form adds a required field: the running definition keeps version 1.
    await publish((await createForm(fk, leaveSchema([{ name: 'extra', type: 'text', required: true }]))).id);
    const bob = await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: t.bob });
    expect(bob.status).toBe(200);
    const fields = bob.body.data.form.fields as any[];
    expect(fields.map((f) => f.name)).not.toContain('extra');
    expect(fields.map((f) => f.name)).not.toContain('hrNote'); // hidden at bob's node
    expect(fields.find((f) => f.name === 'days')).toMatchObject({ permission: 'r', type: 'number', min: 0.5 });
    expect(fields.find((f) => f.name === 'reason').permission).toBe('w');
    expect(bob.body.data.form.sections).toEqual([{ id: 'main', title: 'Request' }]);
    expect(bob.body.data.instance.variables.hrNote).toBeUndefined();
    // Still startable without `extra` (pinned to version 1).
    await start(t.alice, pk, { days: 1, kind: 'sick' });
    // Redeploying picks version 2.
    const def2 = await deploy(t.admin, processWith(pk, fk));
    expect(def2.dsl.ruleChain.additionalInfo.formVersion).toBe(2);
    const missing = await api(startUrl, {
      token: t.alice,
      body: { processKey: pk, variables: { days: 1, kind: 'sick' } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.data.fields).toEqual([{ path: 'variables.extra', message: 'required' }]);
    // An explicit formVersion pins that one.
    const def3 = await deploy(t.admin, processWith(pk, fk, { formVersion: v1.version }));
    expect(def3.dsl.ruleChain.additionalInfo.formVersion).toBe(1);
  });

  it('deploy refuses an unknown form key, a draft-only form, a retired-only form and a missing formKey (422)', async () => {
    const refuse = async (dsl: unknown, code: number) => {
      const res = await api(`${defs}/deploy`, { token: t.admin, body: { dsl } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.code).toBe(code);
      return res;
    };
    const unknown = await refuse(processWith(key('p'), 'no_such_form'), 42251);
    expect(unknown.body.message).toContain('no_such_form');
    const fk = key();
    const draft = await createForm(fk);
    await refuse(processWith(key('p'), fk), 42251);
    await publish(draft.id);
    await api(`${base}/${draft.id}/retire`, { token: t.admin, body: {} });
    await refuse(processWith(key('p'), fk), 42251);
    await refuse(processWith(key('p'), fk, { formVersion: 7 }), 42251);
    const noKey = processWith(key('p'), fk);
    delete (noKey.ruleChain.additionalInfo as any).formKey;
    const res = await refuse(noKey, 42200);
    expect(res.body.data.problems.map((p: any) => p.field)).toContain('ruleChain.additionalInfo.formKey');
    // A draft definition may name it; publishing the draft is refused the same way.
    const pk = key('p');
    const created = await api(defs, { token: t.admin, body: { dsl: processWith(pk, 'no_such_form') } });
    expect(created.status).toBe(201);
    const publishDraft = await api(`${defs}/deploy`, { token: t.admin, body: { draftId: created.body.data.id } });
    expect(publishDraft.status).toBe(422);
    expect(publishDraft.body.code).toBe(42251);
  });

  it('conditions are type-checked against the stored form, at deploy and in validate-conditions', async () => {
    const fk = key();
    await publish((await createForm(fk)).id);
    const ok = await api(`${defs}/deploy`, {
      token: t.admin,
      body: { dsl: processWith(key('p'), fk, {}, 'msg.days > 3.0 && msg.kind == "annual"') },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const bad = await api(`${defs}/deploy`, {
      token: t.admin,
      body: { dsl: processWith(key('p'), fk, {}, 'msg.kind > 3.0') },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe(42200);
    expect(bad.body.data.problems[0]).toMatchObject({ nodeId: 'route', field: 'configuration.cases[0].case' });
    const check = await api(`${defs}/validate-conditions`, {
      token: t.admin,
      body: { dsl: processWith(key('p'), fk, {}, 'msg.paid + 1 > 2') },
    });
    expect(check.status).toBe(200);
    expect(check.body.data.valid).toBe(false);
  });

  it('start, submit-draft and set-variables check values against the form (400 naming each field)', async () => {
    const fk = key();
    const pk = key('p');
    await publish((await createForm(fk)).id);
    await deploy(t.admin, processWith(pk, fk));
    const startWith = (variables: Record<string, unknown>, draft = false) =>
      api(startUrl, { token: t.alice, body: { processKey: pk, variables, ...(draft ? { draft } : {}) } });

    const bad = await startWith({
      days: 31,
      kind: 'holiday',
      from: '2024-02-30',
      reason: 'x'.repeat(201),
      code: 'ab-1',
      tags: ['a', 'b', 'c'],
      cost: '12',
      paid: 'yes',
      backup: 7,
      at: '2024-01-01 10:00',
      files: 'f1',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40001);
    const named = (bad.body.data.fields as any[]).map((f) => f.path.replace(/^variables\./, ''));
    expect(named).toEqual(['days', 'kind', 'from', 'reason', 'code', 'tags', 'cost', 'paid', 'backup', 'at', 'files']);
    for (const n of named) expect(bad.body.message).toContain(`${n}: `);
    const missing = await startWith({});
    expect(missing.body.data.fields).toEqual([
      { path: 'variables.days', message: 'required' },
      { path: 'variables.kind', message: 'required' },
    ]);

    // Every type accepted when right.
    const good = await startWith({
      days: 1.5,
      kind: 'sick',
      from: '2024-02-29',
      reason: 'flu',
      code: 'AB-12',
      tags: ['a', 'c'],
      cost: 10.5,
      paid: false,
      backup: 'carol',
      dept: 'eng',
      at: '2024-01-01T10:00:00Z',
      files: ['https://files.example/f1', 'https://files.example/f2'],
      other: { anything: true },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    const id = good.body.data.instanceId;

    // set-variables on the running instance (initiator) and on the task (approver).
    const setUrl = `/api/v1/workflow/process-instances/${id}/variables`;
    const wrong = await api(setUrl, { token: t.alice, body: { variables: { days: 'two', tags: ['z'] } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.fields.map((f: any) => f.path)).toEqual(['variables.days', 'variables.tags']);
    const one = await api(`${setUrl}/cost`, { method: 'PUT', token: t.alice, body: { value: -1 } });
    expect(one.status).toBe(400);
    expect(one.body.data.fields[0].path).toBe('variables.cost');
    const right = await api(setUrl, { token: t.alice, body: { variables: { days: 3 } } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.data.days).toBe(3);

    const task = await myTask(t.bob, id);
    const taskSet = await api(`/api/v1/workflow/tasks/${task.id}/variables`, {
      token: t.bob,
      body: { variables: { reason: 42 } },
    });
    expect(taskSet.status).toBe(400);
    expect(taskSet.body.data.fields[0].path).toBe('variables.reason');
    const taskOk = await api(`/api/v1/workflow/tasks/${task.id}/variables`, {
      token: t.bob,
      body: { variables: { reason: 'checked' } },
    });
    expect(taskOk.status, JSON.stringify(taskOk.body)).toBe(200);

    // Drafts: saved incomplete, refused at submit until complete.
    const draft = await startWith({ days: 2 }, true);
    expect(draft.status).toBe(201);
    const draftId = draft.body.data.instanceId;
    const submit = () =>
      api(`/api/v1/workflow/process-instances/${draftId}/submit-draft`, { token: t.alice, body: {} });
    const incomplete = await submit();
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.data.fields).toEqual([{ path: 'variables.kind', message: 'required' }]);
    const draftBad = await api(`/api/v1/workflow/process-instances/${draftId}/variables`, {
      token: t.alice,
      body: { variables: { kind: 'other' } },
    });
    expect(draftBad.status).toBe(400);
    await api(`/api/v1/workflow/process-instances/${draftId}/variables`, {
      token: t.alice,
      body: { variables: { kind: 'annual' } },
    });
    expect((await submit()).status).toBe(200);
  });
});
