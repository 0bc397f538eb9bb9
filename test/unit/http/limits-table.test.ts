// docs/http.md "Limits" lists every limit in one table with the number the OpenAPI document
// carries. This test reads both: for each row it names, the row's limit cell must say the number and
// the schema of the operation must carry it, so neither can change without the other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { AppDeps } from '../../../src/context.js';
import { createApp } from '../../../src/main/app.js';
import { createLogger } from '../../../src/observability/logger.js';

const root = path.resolve(import.meta.dirname, '../../..');

type Schema = Record<string, any>;
let doc: Schema;

/** The table of docs/http.md "## Limits": first cell → second cell. */
function limitsTable(): Map<string, string> {
  const md = readFileSync(path.join(root, 'docs/http.md'), 'utf8');
  const section = md.split('\n## Limits\n')[1].split('\n## ')[0];
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| what') || line.startsWith('|---')) continue;
    // Cells are split on " | " (a `\|` inside a cell is escaped and never surrounded by spaces).
    const cells = line.slice(2, -2).split(' | ');
    rows.set(cells[0], cells[1]);
  }
  return rows;
}

const deref = (s: Schema | undefined): Schema => {
  let cur = s ?? {};
  while (cur.$ref) cur = doc.components.schemas[cur.$ref.split('/').at(-1)];
  return cur;
};

/**
 * The schema at `where` of an operation: `body.a.b`, `body.a[]`, `body|oneOf0.a`, `body.a{}`
 * (a map's values), `body.a<key>` (a map's keys), `query.x`, `path.x`, `header.x`.
 */
function schemaAt(operation: string, where: string): Schema {
  const [method, route] = operation.split(' ');
  const op = doc.paths[route]?.[method.toLowerCase()];
  if (!op) throw new Error(`no operation ${operation}`);
  const [first, ...rest] = where.split('.');
  let s: Schema;
  if (first.startsWith('body')) {
    s = deref((Object.values(op.requestBody?.content ?? {})[0] as Schema | undefined)?.schema);
    const alt = /\|(oneOf|anyOf)(\d+)/.exec(first);
    if (alt) s = deref(s[alt[1]][Number(alt[2])]);
  } else {
    const param = op.parameters.find((p: Schema) => p.in === first && p.name.toLowerCase() === rest[0].toLowerCase());
    if (!param) throw new Error(`${operation}: no ${first} parameter ${rest[0]}`);
    return deref(param.schema);
  }
  for (const part of rest) {
    const name = part.replace(/(\[\]|\{\}|<key>)$/, '');
    s = deref(s.properties?.[name] ?? s.allOf?.map(deref).find((x: Schema) => x.properties?.[name])?.properties[name]);
    if (part.endsWith('[]')) s = deref(s.items);
    if (part.endsWith('{}')) s = deref(s.additionalProperties);
    if (part.endsWith('<key>')) s = deref(s.propertyNames);
  }
  return s;
}

/** [row of the table, text its limit cell says, operation, field, what the schema carries there]. */
const CHECKS: Array<[string, string, string, string, Schema]> = [
  [
    '`Idempotency-Key`',
    '1–255',
    'POST /api/v1/workflow/tasks/{id}/approve',
    'header.Idempotency-Key',
    { minLength: 1, maxLength: 255 },
  ],
  ['`page` / `pageSize`', '1–200', 'GET /api/v1/users', 'query.pageSize', { minimum: 1, maximum: 200 }],
  ['`page` / `pageSize`', '1–2⁵³−1', 'GET /api/v1/users', 'query.page', { minimum: 1, maximum: 2 ** 53 - 1 }],
  ['ids a client chooses', '1–100', 'POST /api/v1/users', 'body.id', { minLength: 1, maxLength: 100 }],
  ['ids a client chooses', '1–100', 'POST /api/v1/departments', 'body.id', { minLength: 1, maxLength: 100 }],
  ['ids a client chooses', '1–100', 'POST /api/v1/roles', 'body.code', { minLength: 1, maxLength: 100 }],
  ['ids a client chooses', '1–100', 'POST /api/v1/tenants', 'body.id', { minLength: 1, maxLength: 100 }],
  ['`username`, `displayName`', '1–200', 'POST /api/v1/users', 'body.username', { minLength: 1, maxLength: 200 }],
  ['`username`, `displayName`', '1–200', 'POST /api/v1/users', 'body.displayName', { minLength: 1, maxLength: 200 }],
  ['`username`, `displayName`', '1–200', 'POST /api/v1/departments', 'body.name', { minLength: 1, maxLength: 200 }],
  ['`password`', '4–1000', 'POST /api/v1/users', 'body.password', { minLength: 4, maxLength: 1000 }],
  ['`password`', 'login: 1–1000', 'POST /api/v1/auth/login', 'body.password', { minLength: 1, maxLength: 1000 }],
  ["a user's `roles`", '100 / 200 entries', 'POST /api/v1/users', 'body.roles', { maxItems: 100 }],
  ["a user's `roles`", '100 / 200 entries', 'POST /api/v1/roles', 'body.permissions', { maxItems: 200 }],
  ['`businessKey`', '200', 'POST /api/v1/workflow/process-instances/start', 'body.businessKey', { maxLength: 200 }],
  ['task action `reason`', '4000', 'POST /api/v1/workflow/tasks/{id}/approve', 'body.comment', { maxLength: 4000 }],
  ['task action `reason`', '4000', 'POST /api/v1/workflow/tasks/batch/approve', 'body.comment', { maxLength: 4000 }],
  ['task action `reason`', '4000', 'POST /api/v1/approve-links/{token}', 'body.comment', { maxLength: 4000 }],
  [
    '`POST /tasks/{id}/comments`',
    '1–4000',
    'POST /api/v1/workflow/tasks/{id}/comments',
    'body.comment',
    { maxLength: 4000 },
  ],
  [
    'instance action and repair',
    '2000',
    'POST /api/v1/workflow/process-instances/{id}/withdraw',
    'body.reason',
    { maxLength: 2000 },
  ],
  [
    'instance action and repair',
    '2000',
    'POST /api/v1/workflow/process-instances/{id}/re-drive',
    'body.reason',
    { maxLength: 2000 },
  ],
  ['urge `message`', '1000', 'POST /api/v1/workflow/tasks/urge/{id}', 'body.message', { maxLength: 1000 }],
  [
    '`assigneeUserIds`',
    '1–50',
    'POST /api/v1/workflow/tasks/{id}/add-sign',
    'body.assigneeUserIds',
    { minItems: 1, maxItems: 50 },
  ],
  [
    '`assigneeUserIds`',
    '1–200 chars',
    'POST /api/v1/workflow/tasks/{id}/add-sign',
    'body.assigneeUserIds[]',
    { minLength: 1, maxLength: 200 },
  ],
  [
    'candidates `userIds`',
    '1–200 ids',
    'POST /api/v1/workflow/tasks/{id}/candidates',
    'body.userIds',
    { minItems: 1, maxItems: 200 },
  ],
  [
    'candidates `userIds`',
    'of 1–200 chars',
    'POST /api/v1/workflow/tasks/{id}/candidates',
    'body.roleIds[]',
    { minLength: 1, maxLength: 200 },
  ],
  [
    'batch decisions `taskIds`',
    '1–100',
    'POST /api/v1/workflow/tasks/batch/reject',
    'body.taskIds',
    { minItems: 1, maxItems: 100 },
  ],
  [
    'batch delete `ids`',
    '1–200 ids',
    'DELETE /api/v1/workflow/process-instances/batch',
    'body.ids',
    { minItems: 1, maxItems: 200 },
  ],
  [
    'batch delete `ids`',
    'of 1–200 chars',
    'DELETE /api/v1/workflow/process-instances/batch',
    'body.ids[]',
    { minLength: 1, maxLength: 200 },
  ],
  [
    'validate-conditions `expressions`',
    '1000',
    'POST /api/v1/workflow/process-definitions/validate-conditions',
    'body|oneOf1.expressions',
    { maxItems: 1000 },
  ],
  [
    'migrate (batch)',
    '`limit` 1–500',
    'POST /api/v1/workflow/process-instances/migrate',
    'body.limit',
    { minimum: 1, maximum: 500 },
  ],
  [
    'migrate (batch)',
    'node ids 1–200',
    'POST /api/v1/workflow/process-instances/migrate',
    'body.nodeMapping{}',
    { minLength: 1, maxLength: 200 },
  ],
  ['approval link mint', '259200', 'POST /api/v1/workflow/tasks/{id}/links', 'body.ttlSeconds', { maximum: 259200 }],
  [
    'approval link mint',
    '`via` 1–40',
    'POST /api/v1/workflow/tasks/{id}/links',
    'body.via',
    { minLength: 1, maxLength: 40 },
  ],
  [
    'approval link mint',
    '`actions` 1–2',
    'POST /api/v1/workflow/tasks/{id}/links',
    'body.actions',
    { minItems: 1, maxItems: 2 },
  ],
  ['approval link token', '1000', 'GET /api/v1/approve-links/{token}', 'path.token', { maxLength: 1000 }],
  ['service function', '`name` ≤200', 'POST /api/v1/service-functions', 'body|oneOf0.name', { maxLength: 200 }],
  [
    'service function',
    '`secret` 16–500',
    'POST /api/v1/service-functions',
    'body|oneOf0.secret',
    { minLength: 16, maxLength: 500 },
  ],
  [
    'service function',
    '`timeoutMs` 100–86400000',
    'POST /api/v1/service-functions',
    'body|oneOf0.timeoutMs',
    { minimum: 100, maximum: 86400000 },
  ],
  [
    'service function',
    'attempts 1–100',
    'POST /api/v1/service-functions',
    'body|oneOf0.retry.maximumAttempts',
    { minimum: 1, maximum: 100 },
  ],
  [
    'service function',
    'initial interval 1–3600000',
    'POST /api/v1/service-functions',
    'body|oneOf0.retry.initialIntervalMs',
    { minimum: 1, maximum: 3600000 },
  ],
  [
    'service function',
    'backoff 1–10',
    'POST /api/v1/service-functions',
    'body|oneOf0.retry.backoffCoefficient',
    { minimum: 1, maximum: 10 },
  ],
  [
    'service function',
    '`description` ≤2000',
    'POST /api/v1/service-functions',
    'body|oneOf0.description',
    { maxLength: 2000 },
  ],
  ['AI agent', '`agentId` 1–200', 'POST /api/v1/ai-agents', 'body.agentId', { minLength: 1, maxLength: 200 }],
  ['AI agent', '`systemPrompt` ≤20000', 'POST /api/v1/ai-agents', 'body.systemPrompt', { maxLength: 20000 }],
  ['AI agent', '`temperature` 0–2', 'POST /api/v1/ai-agents', 'body.temperature', { minimum: 0, maximum: 2 }],
  [
    'AI agent',
    '`timeoutMs` 1000–600000',
    'POST /api/v1/ai-agents',
    'body.timeoutMs',
    { minimum: 1000, maximum: 600000 },
  ],
  ['AI agent', '`apiKey` 1–2000', 'POST /api/v1/ai-agents', 'body.apiKey', { minLength: 1, maxLength: 2000 }],
  ['network allowlist', '≤200 entries', 'PUT /api/v1/network-allowlist', 'body.entries', { maxItems: 200 }],
  ['network allowlist', '`entry` ≤253', 'PUT /api/v1/network-allowlist', 'body.entries[].entry', { maxLength: 253 }],
  [
    'network allowlist',
    '`description` ≤500',
    'PUT /api/v1/network-allowlist',
    'body.entries[].description',
    { maxLength: 500 },
  ],
  ['stored form', '`key` 1–100', 'POST /api/v1/forms', 'body.key', { minLength: 1, maxLength: 100 }],
  ['stored form', '`category` ≤100', 'POST /api/v1/forms', 'body.category', { maxLength: 100 }],
  ['stored form', '`description` ≤2000', 'POST /api/v1/forms', 'body.description', { maxLength: 2000 }],
  ['stored form', '≤200 fields', 'POST /api/v1/forms', 'body.schema.fields', { maxItems: 200 }],
  ['stored form', '≤50 sections', 'POST /api/v1/forms', 'body.schema.sections', { maxItems: 50 }],
  ['user `email`', '≤320', 'POST /api/v1/users', 'body.email', { maxLength: 320 }],
  [
    'notification channel',
    '`name` 1–100',
    'POST /api/v1/notification-channels',
    'body|oneOf0.name',
    { minLength: 1, maxLength: 100 },
  ],
  ['notification channel', '`kinds` ≤50', 'POST /api/v1/notification-channels', 'body|oneOf0.kinds', { maxItems: 50 }],
  [
    'notification channel',
    '`host` 1–253',
    'POST /api/v1/notification-channels',
    'body|oneOf0.settings.host',
    { minLength: 1, maxLength: 253 },
  ],
  [
    'notification channel',
    '`port` 1–65535',
    'POST /api/v1/notification-channels',
    'body|oneOf0.settings.port',
    { minimum: 1, maximum: 65535 },
  ],
  [
    'channel address, test `to`',
    '1–320',
    'PUT /api/v1/notification-channels/{id}/addresses/{userId}',
    'body.address',
    { minLength: 1, maxLength: 320 },
  ],
  [
    'channel address, test `to`',
    'test `userId` 1–100',
    'POST /api/v1/notification-channels/{id}/test',
    'body.userId',
    { minLength: 1, maxLength: 100 },
  ],
  ['delivery log filters', '≤100', 'GET /api/v1/notification-deliveries', 'query.channelId', { maxLength: 100 }],
  ['link page', '`comment` ≤2000', 'POST /l/{token}', 'body|anyOf1.comment', { maxLength: 2000 }],
  [
    'notification template',
    '`subject`, `title` ≤1000',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'body.subject',
    { maxLength: 1000 },
  ],
  [
    'notification template',
    '`intro`, `actions` ≤5000',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'body.actions',
    { maxLength: 5000 },
  ],
  [
    'notification template',
    '`facts` ≤10000',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'body.facts',
    { maxLength: 10000 },
  ],
  [
    'notification template',
    '`text` ≤20000',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'body.text',
    { maxLength: 20000 },
  ],
  [
    'notification template',
    '`html` ≤40000',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'body.html',
    { maxLength: 40000 },
  ],
  [
    'notification template',
    '`kind` ≤100',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'path.kind',
    { maxLength: 100 },
  ],
  [
    'notification template',
    '`locale` ≤20',
    'PUT /api/v1/notification-templates/{kind}/{locale}',
    'path.locale',
    { maxLength: 20 },
  ],
  [
    'notification template',
    'preview ids ≤100',
    'POST /api/v1/notification-templates/{kind}/{locale}/preview',
    'body.taskId',
    { maxLength: 100 },
  ],
  [
    'notification preferences',
    'channel ids 1–100',
    'PUT /api/v1/me/notification-preferences',
    'body.channels<key>',
    { minLength: 1, maxLength: 100 },
  ],
  [
    'notification preferences',
    '≤50 kinds',
    'PUT /api/v1/me/notification-preferences',
    'body.channels{}',
    { maxItems: 50 },
  ],
  [
    'notification preferences',
    '`digest.hour` 0–23',
    'PUT /api/v1/me/notification-preferences',
    'body.digest.hour',
    { minimum: 0, maximum: 23 },
  ],
];

describe('docs/http.md "Limits" and the OpenAPI document carry the same numbers', () => {
  beforeAll(async () => {
    const unused = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the OpenAPI document needs no dependency');
        },
      },
    );
    const deps = {
      config: loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      logger: createLogger('silent', 'limits-table'),
      orm: unused,
      temporal: unused,
      tokens: unused,
    } as unknown as AppDeps;
    doc = await (await createApp(deps).request('/openapi.json')).json();
  });

  const table = limitsTable();

  it.each(CHECKS)('%s says %s; %s %s carries it', (row, text, operation, where, expected) => {
    const rows = [...table.keys()].filter((k) => k.startsWith(row));
    expect(rows, `one row of the table starts with ${row}`).toHaveLength(1);
    expect(table.get(rows[0])).toContain(text);
    const s = schemaAt(operation, where);
    for (const [keyword, value] of Object.entries(expected)) {
      // `minimum: 1` of an integer may be written `exclusiveMinimum: 0`.
      const actual =
        keyword === 'minimum' && s.minimum === undefined && typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : s[keyword];
      expect(actual, `${operation} ${where} ${keyword}`).toBe(value);
    }
  });
});

describe('lists: one rule (docs/contract.md "Lists: one rule")', () => {
  // The document is built by the beforeAll above (same file, same module state).
  const contract = readFileSync(path.join(root, 'docs/contract.md'), 'utf8');
  const rule = contract.slice(contract.indexOf('**Lists: one rule.**')).split('\n* ')[0];

  const lists = () => {
    const arrays: string[] = [];
    const pages: string[] = [];
    for (const [route, ops] of Object.entries<Schema>(doc.paths)) {
      const op = ops.get;
      const schema = op?.responses?.['200']?.content?.['application/json']?.schema;
      if (!schema) continue;
      const data = deref(deref(schema).properties?.data);
      if (data.type === 'array') arrays.push(route);
      else if (data.properties?.items) pages.push(route);
    }
    return { arrays, pages };
  };

  it('answers a plain array on exactly the operations the rule names', () => {
    const sentence = rule.slice(rule.indexOf('exactly three'), rule.indexOf('Variables read'));
    const named = [...sentence.matchAll(/`GET (\/[^`]+)`/g)].map((m) => m[1]);
    expect(named).toHaveLength(3);
    expect(rule).toContain('exactly three');
    const { arrays } = lists();
    expect(arrays.map((r) => r.replace(/^\/api\/v1(\/workflow)?/, '')).sort()).toEqual(named.sort());
  });

  it('answers every other collection as a page that takes page and pageSize', () => {
    const { pages } = lists();
    expect(pages.length).toBeGreaterThan(20);
    for (const route of pages) {
      const op = doc.paths[route].get;
      const data = deref(deref(op.responses['200'].content['application/json'].schema).properties.data);
      expect(Object.keys(data.properties).sort(), route).toEqual(['items', 'page', 'pageSize', 'total']);
      const params = op.parameters.map((p: Schema) => `${p.in}.${p.name}`);
      expect(params, route).toEqual(expect.arrayContaining(['query.page', 'query.pageSize']));
    }
  });
});

describe('the document states what docs/service-functions.md and docs/monitoring.md say', () => {
  it('re-drive: a node still running is 409 INVALID_STATE, the callId format, the failure an instance carries', () => {
    const redrive = doc.paths['/api/v1/workflow/process-instances/{id}/re-drive'].post;
    expect(redrive.description).toContain('409 `INVALID_STATE`');
    expect(redrive.description).toContain('waits for an external result');
    expect(redrive.description).toContain('`<workflowId>:<nodeId>:<visit>`');
    expect(redrive.responses['409']).toBeDefined();
    const instance = deref(doc.components.schemas.Instance);
    const failure = (instance.properties.failure.anyOf ?? [instance.properties.failure]).map(deref);
    expect(failure.some((s: Schema) => s.properties?.reason && s.properties?.failedNode)).toBe(true);
  });
});
