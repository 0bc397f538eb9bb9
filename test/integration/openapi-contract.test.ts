// The OpenAPI document states the limits the server enforces, and the server keeps to what the
// document allows (docs/http.md "Limits"): the rules every string and parameter follows, bodies
// that take one of two shapes, references in bodies (404 / 409), a required body that is missing.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant, create, expectError } from '../helpers/api.js';
import { deploy, myTask, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';
import { HTTP_URL_PATTERN } from '../../src/shapes.js';

type Json = Record<string, any>;
let doc: Json;
const schemas = () => doc.components.schemas as Record<string, Json>;

beforeAll(async () => {
  const res = await fetch(`${baseUrl()}/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
});

/** Every schema below `node` with the JSON path that leads to it. */
function* walk(node: unknown, at: string): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* walk(item, `${at}[${i}]`);
    return;
  }
  if (!node || typeof node !== 'object') return;
  yield [at, node as Json];
  for (const [key, value] of Object.entries(node))
    if (!['example', 'examples', 'default', 'const', 'enum'].includes(key)) yield* walk(value, `${at}.${key}`);
}

const isString = (s: Json) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));
const operations = () =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ label: `${method.toUpperCase()} ${path}`, op: op as Json })),
  );

describe('the document states the rules', () => {
  it('every request string says it carries no U+0000; every map its keys; every parameter its length', () => {
    const loose: string[] = [];
    for (const [name, schema] of Object.entries(schemas())) {
      if (name === 'ErrorEnvelope') continue;
      for (const [at, s] of walk(schema, name)) {
        if (isString(s) && !s.pattern && !s.format && !s.enum && s.const === undefined) loose.push(at);
        if (s.additionalProperties && typeof s.additionalProperties === 'object' && !s.propertyNames?.pattern)
          loose.push(`${at} (keys)`);
      }
    }
    for (const { label, op } of operations()) {
      for (const p of op.parameters ?? []) {
        if (!isString(p.schema)) continue;
        if (!p.schema.pattern && !p.schema.format && !p.schema.enum) loose.push(`${label} ${p.name}`);
        if ((p.in === 'path' || p.in === 'query') && !(p.schema.maxLength <= 1000))
          loose.push(`${label} ${p.name} (maxLength)`);
      }
    }
    expect(loose).toEqual([]);
    expect(doc.info.description).toContain('at most 32 levels');
    expect(doc.info.description).toContain('262144 bytes');
    expect(doc.info.description).toContain('REFERENCE_NOT_FOUND');
  });

  it('an http(s) URL is the one pattern the server checks, never format uri (which admits `HTTP:` with no host)', () => {
    const uris: string[] = [];
    const urls: string[] = [];
    for (const [name, schema] of Object.entries(schemas()))
      for (const [at, s] of walk(schema, name)) {
        if (s.format === 'uri') uris.push(at);
        if (s.pattern === HTTP_URL_PATTERN) urls.push(at);
      }
    expect(uris).toEqual([]);
    for (const field of ['url', 'baseUrl'])
      expect(
        urls.some((at) => at.endsWith(`.${field}`)),
        field,
      ).toBe(true);
    expect(urls.length).toBeGreaterThanOrEqual(5);
  });

  it('a body of one of two shapes is a oneOf of closed objects; no schema mixes properties with oneOf', () => {
    const shapes = (name: string) =>
      (schemas()[name].oneOf as Json[]).map((b) => {
        const s = schemas()[b.$ref.split('/').at(-1)];
        expect(s.additionalProperties).toBe(false);
        return s.required;
      });
    expect(shapes('DefinitionDeployBody')).toEqual([['dsl'], ['draftId']]);
    expect(shapes('ValidateConditionsBody')).toEqual([['dsl'], ['expressions']]);
    expect(shapes('DefinitionSimulateBody')).toEqual([['dsl'], ['definitionId']]);
    expect(shapes('ServiceFunctionCreate')).toEqual([
      ['name', 'kind', 'taskQueue', 'activityType'],
      ['name', 'kind', 'url', 'secret'],
    ]);
    expect(schemas().ServiceFunctionCreateWebhook.properties.timeoutMs.maximum).toBe(120_000);
    expect(schemas().MigrateInstancesBody.not).toEqual({ required: ['sourceVersion', 'sourceDefinitionId'] });
    // zod's .int() takes safe integers only; the document says so.
    expect(schemas().MigrateInstancesBody.properties.sourceVersion).toMatchObject({
      exclusiveMinimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    for (const [at, s] of Object.entries(schemas()).flatMap(([n, sc]) => [...walk(sc, n)]))
      expect(s.properties && s.oneOf ? at : null).toBeNull();
  });

  it('states what a refinement checks: at least one field, one variable, a value, a reason, unique ids', () => {
    for (const name of ['UserPatch', 'DepartmentPatch', 'RolePatch', 'CandidatesBody'])
      expect(schemas()[name].minProperties, name).toBe(1);
    expect(schemas().CandidatesBody.properties.userIds.minItems).toBe(1);
    expect(schemas().SetTaskVariablesBody.properties.variables).toMatchObject({
      minProperties: 1,
      propertyNames: { minLength: 1, maxLength: 200 },
    });
    expect(schemas().TaskVariableValueBody.required).toEqual(['value']);
    expect(schemas().UpdateVariable.required).toEqual(['value']);
    expect(schemas().ApprovalDecisionBody.then.required).toEqual(['reason']);
    expect(schemas().BatchDecisionBody.properties.taskIds.uniqueItems).toBe(true);
    expect(schemas().ServiceFunctionRetryPolicy.type).toBe('object'); // not nullable: null is refused
    expect(schemas().FormCreateBody.properties.schema.allOf).toEqual([{ $ref: '#/components/schemas/FormSchema' }]);
    expect(schemas().MintApprovalLinkRequest.properties.ttlSeconds.maximum).toBe(3 * 24 * 3600);
  });

  it('documents the answers of the WebSocket path and the rate-limit headers of the unauthenticated endpoints', () => {
    const socket = doc.paths['/api/v1/ws/notifications'].get.responses;
    expect(Object.keys(socket)).toEqual(expect.arrayContaining(['101', '400', '401', '426']));
    for (const path of ['/api/v1/auth/login', '/api/v1/approve-links/{token}']) {
      for (const op of Object.values(doc.paths[path]) as Json[]) {
        expect(Object.keys(op.responses[429].headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'Retry-After']);
        expect(Object.keys(op.responses[401].headers)).toEqual(['RateLimit-Policy', 'RateLimit']);
      }
    }
    const token = doc.paths['/api/v1/approve-links/{token}'].get.parameters.find((p: Json) => p.name === 'token');
    expect(token.schema).toMatchObject({ maxLength: 1000, pattern: expect.stringContaining('A-Za-z0-9_-') });
  });
});

describe('the server keeps to the document', () => {
  let t: Record<string, string>;
  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('oc'));
    await deploy(t.admin, oneStep('oc_single', users('bob')));
  });

  it('a path segment or query value of more than 1000 characters is 400; 1000 four-byte characters still arrive', async () => {
    const long = 'x'.repeat(1001);
    const path = await api(`/api/v1/users/${long}`, { token: t.admin });
    expectError(path, 400, 40001);
    expect(path.body.data.fields[0].path).toBe('path.id');
    const query = await api(`/api/v1/users?q=${long}`, { token: t.admin });
    expectError(query, 400, 40001);
    expect(query.body.data.fields[0].path).toBe('query.q');
    // 1000 characters of 4 UTF-8 bytes each: 12 kB percent-encoded, under the header limit (no 431).
    const wide = encodeURIComponent('😀'.repeat(1000));
    expectError(await api(`/api/v1/users/${wide}`, { token: t.admin }), 404, 40400);
  });

  it('a body that names what the tenant does not have is 404 REFERENCE_NOT_FOUND; a deactivated user 409', async () => {
    await create(t.admin, '/api/v1/users', { id: 'gone', username: 'gone', password: 'pw-gone', active: false });
    const id = await start(t.alice, 'oc_single');
    const task = await myTask(t.bob, id);
    const act = (body: unknown) => api(`/api/v1/workflow/tasks/${task.id}/transfer`, { token: t.bob, body });
    const missing = await act({ assigneeUserId: 'nobody' });
    expectError(missing, 404, 40410);
    expect(missing.body.data.fields).toEqual([{ path: 'assigneeUserId', message: 'no user nobody' }]);
    const inactive = await act({ assigneeUserId: 'gone' });
    expectError(inactive, 409, 40909);
    expect(inactive.body.data.fields).toEqual([{ path: 'assigneeUserId', message: 'user gone is deactivated' }]);
    const patch = await api('/api/v1/users/alice', { method: 'PATCH', token: t.admin, body: { managerId: 'alice' } });
    expectError(patch, 409, 40900);
  });

  it('a required body that was not sent is 400, also where every field is optional', async () => {
    const form = await create(t.admin, '/api/v1/forms', { key: 'oc_form', name: 'F', schema: {} });
    expectError(await api(`/api/v1/forms/${form.id}`, { method: 'PATCH', token: t.admin }), 400, 40001);
  });

  it('a webhook made from an activity without a secret to keep is 409, not 400', async () => {
    await create(t.admin, '/api/v1/service-functions', {
      name: 'Oc.fn',
      kind: 'activity',
      taskQueue: 'q',
      activityType: 'a',
    });
    const res = await api('/api/v1/service-functions/Oc.fn', {
      method: 'PUT',
      token: t.admin,
      body: { kind: 'webhook', url: 'https://example.com/hook' },
    });
    expectError(res, 409, 40901);
  });
});
