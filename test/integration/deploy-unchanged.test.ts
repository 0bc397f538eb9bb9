// Deploy's duplicate filter (docs/definitions.md "Publishing an unchanged document"): every deploy is the next
// version, unless `skipIfUnchanged` is sent and the document equals the active version's — keys in any order.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { processDoc, users } from '../helpers/dsl.js';

const base = '/api/v1/workflow/process-definitions';

const dsl = (key: string, approver = 'bob') =>
  processDoc(
    { id: key, name: `Leave ${key}`, additionalInfo: { category: 'HR', description: 'leave request' } },
    [{ id: 'approve', type: 'userTask', name: 'HR review', configuration: users(approver) }],
    [
      ['start', 'approve'],
      ['approve', 'end'],
    ],
  );

/** The same value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .reverse()
        .map(([k, v]) => [k, reversed(v)]),
    );
  return value;
}

describe('deploy with skipIfUnchanged', () => {
  let admin: string;
  const deploy = (body: unknown) => api(`${base}/deploy`, { token: admin, body });
  const versions = async (key: string) =>
    ((await api(`${base}/key/${key}/versions`, { token: admin })).body.data?.items ?? []) as Array<{
      id: string;
      version: number;
      status: string;
    }>;

  beforeAll(async () => {
    admin = (await createDemoLikeTenant('dedup')).tokens.admin;
  });

  it('keeps "every deploy is version + 1" by default, and answers the active version unchanged when asked', async () => {
    const first = await deploy({ dsl: dsl('leave') });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ version: 1, status: 'active' });

    // The same document with every key in another order: unchanged, 200, the same row.
    const same = await deploy({ dsl: reversed(dsl('leave')), skipIfUnchanged: true });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ id: first.body.data.id, version: 1, status: 'active' });
    expect((await versions('leave')).map((v) => v.version)).toEqual([1]);

    // Without the option the rule stands: version 2, even for the same document.
    const again = await deploy({ dsl: dsl('leave') });
    expect(again.status).toBe(201);
    expect(again.body.data.version).toBe(2);

    // A changed document with the option: the next version.
    const changed = await deploy({ dsl: dsl('leave', 'carol'), skipIfUnchanged: true });
    expect(changed.status).toBe(201);
    expect(changed.body.data.version).toBe(3);
    expect((await versions('leave')).map((v) => [v.version, v.status])).toEqual([
      [3, 'active'],
      [2, 'retired'],
      [1, 'retired'],
    ]);
  });

  it('a draft equal to the active version is not published: the active version answers, the draft stays a draft', async () => {
    const active = await deploy({ dsl: dsl('trip') });
    expect(active.status).toBe(201);
    const draft = await api(base, { token: admin, body: { dsl: reversed(dsl('trip')) } });
    expect(draft.status).toBe(201);

    const same = await deploy({ draftId: draft.body.data.id, skipIfUnchanged: true });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ id: active.body.data.id, version: 1, status: 'active' });
    expect((await api(`${base}/${draft.body.data.id}`, { token: admin })).body.data.status).toBe('draft');

    // The draft edited: published as version 2.
    const edited = await api(`${base}/${draft.body.data.id}`, {
      token: admin,
      method: 'PUT',
      body: { dsl: dsl('trip', 'carol') },
    });
    expect(edited.status).toBe(200);
    const published = await deploy({ draftId: draft.body.data.id, skipIfUnchanged: true });
    expect(published.status).toBe(201);
    expect(published.body.data).toMatchObject({ id: draft.body.data.id, version: 2, status: 'active' });
  });

  it('refuses a non-boolean option with a 4xx and writes nothing', async () => {
    const r = await deploy({ dsl: dsl('odd'), skipIfUnchanged: 'yes' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(await versions('odd')).toEqual([]);
  });

  it('documents both answers in /openapi.json', async () => {
    const doc = (await api('/openapi.json')).body as any;
    const op = doc.paths['/api/v1/workflow/process-definitions/deploy'].post;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '201']));
    const resolve = (x: any): any => (x.$ref ? doc.components.schemas[x.$ref.split('/').pop()] : x);
    // The body is one of two shapes (with dsl, with draftId): both take the option.
    const body = resolve(op.requestBody.content['application/json'].schema);
    const shapes = (body.oneOf ?? body.anyOf ?? [body]).map(resolve);
    expect(shapes.length).toBeGreaterThan(0);
    for (const shape of shapes) expect(shape.properties.skipIfUnchanged.type).toBe('boolean');
  });
});
