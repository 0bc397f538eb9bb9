import { z } from '@hono/zod-openapi';
import * as instances from './instances.js';
import * as variables from './instance-variables.js';
import * as lifecycle from './instance-actions.js';
import { Permissions } from '../permissions.js';
import { AppError } from '../errors.js';
import { page } from '../http/envelope.js';
import { actionEndpoints, createRouter, endpoint } from '../http/router.js';
import * as s from './instances.schemas.js';
import { variableWrites } from '../http/shared-endpoints.js';
import type { AppDeps, Principal } from '../context.js';
import { isEndingCode, type EndingParams } from '../../dsl/ending.js';
import { zhCNEndings } from '../../dsl/ending.zh-CN.js';
import { requestLocale, type ApiLocale } from '../http/locale.js';
import { idempotentId } from '../http/idempotency.js';
import { definitionOf, findInstanceRow, instanceView } from '../read-model/read-model.js';

type WithEnding = { endReason: string | null; endCode?: string | null; endParams?: Record<string, unknown> | null };

/**
 * An instance: its `endReason` in `locale`, said from `endCode` and `endParams`. English keeps the
 * words the engine recorded (the same sentence); an instance that ended before codes keeps its words.
 */
export function instanceIn<T extends WithEnding>(locale: ApiLocale, instance: T): T {
  if (locale === 'en' || !isEndingCode(instance.endCode)) return instance;
  const say = zhCNEndings[instance.endCode] as (p: EndingParams[keyof EndingParams]) => string;
  return { ...instance, endReason: say((instance.endParams ?? {}) as EndingParams[keyof EndingParams]) };
}

const tags = ['process-instances'];
const starters = [Permissions.INSTANCE_START, Permissions.CREATE];

/** A page of instances, each end reason in the caller's language. */
const inList = <T extends { items: s.Instance[] }>(locale: ApiLocale, found: T): T => ({
  ...found,
  items: found.items.map((i) => instanceIn(locale, i)),
});

/** An instance row, or null when the tenant has none of that id (running or archived). */
async function instanceRowOrNull(deps: AppDeps, tenantId: string, id: string): Promise<any> {
  return findInstanceRow(deps.orm.em.fork(), tenantId, id).catch((err: unknown) => {
    if (err instanceof AppError && err.type === 'NOT_FOUND') return null;
    throw err;
  });
}

/**
 * A start with an Idempotency-Key (docs/http.md#idempotency-key): the instance id is derived from
 * the key's scope (tenant, user, method, path, key), so the first request creates it and every
 * retry finds it. A retry answers that instance as it is now; if its first state is not in the
 * read model yet (the first request is still running, or its server died after the insert), the
 * retry starts or attaches to its workflow — the same workflow id and start Update id, which
 * Temporal de-duplicates — and answers once that state is written, as the first request would have.
 */
async function startOnce(deps: AppDeps, principal: Principal, body: z.infer<typeof s.StartBody>, scope: string) {
  const id = idempotentId(scope, 'process-instances/start');
  let row = await instanceRowOrNull(deps, principal.tenantId, id);
  if (!row) {
    try {
      return await instances.startInstance(deps, principal, { ...body, instanceId: id });
    } catch (err) {
      // A concurrent retry inserted the row first (the unique key it hit is the id), or attached
      // the start form's files to it first.
      if (!(err instanceof AppError && ['BUSINESS_KEY_IN_USE', 'ATTACHMENT_ATTACHED'].includes(err.type))) throw err;
      row = await instanceRowOrNull(deps, principal.tenantId, id);
      if (!row) throw err;
    }
  }
  if (!row.archived && row.status !== 'draft' && Number(row.seq) === 0) {
    const def = await definitionOf(deps.orm.em.fork(), row);
    if (!def) throw new AppError('NOT_FOUND', `The definition of instance ${id} no longer exists`);
    await instances.launch(deps, row, def.dsl);
    row = await findInstanceRow(deps.orm.em.fork(), principal.tenantId, id);
  }
  return { instanceId: id, instance: instanceView(row) };
}

export function instanceRoutes(deps: AppDeps) {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'post',
      path: '/start',
      tags,
      summary: 'Start an instance (or create a draft with draft: true)',
      description:
        'With Idempotency-Key, a retry with the same key and body answers the instance the first request started (its id, as it is now) and starts nothing; the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED.',
      permissions: starters,
      body: s.StartBody,
      idempotent: true,
      status: 201,
      response: s.Started,
      responseDescription: 'Started',
    },
    async ({ principal, body, key, c }) => {
      const started = key
        ? await startOnce(deps, principal, body, key)
        : await instances.startInstance(deps, principal, body);
      return { ...started, instance: instanceIn(requestLocale(c), started.instance) };
    },
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'Instances (runtime and archive merged)',
      query: s.InstanceListQuery,
      response: page(s.Instance),
    },
    async ({ principal, query, c }) => inList(requestLocale(c), await instances.listInstances(deps, principal, query)),
  );
  // The caller's lists: one page each, narrowed by the query.
  for (const [path, summary, query, row, list] of [
    [
      '/cc',
      'Instances copied to me (filters: processKey, q in the business key)',
      s.CcQuery,
      s.CcRecord,
      instances.ccList,
    ],
    ['/applications', 'Instances I started', s.ApplicationsQuery, s.Instance, instances.applications],
  ] as const) {
    endpoint(
      r,
      { method: 'get', path, tags, summary, query, response: page(row) },
      async ({ principal, query: q, c }) => {
        const found = await (list as (d: AppDeps, p: typeof principal, q: unknown) => Promise<unknown>)(
          deps,
          principal,
          q,
        );
        return row === s.Instance ? inList(requestLocale(c), found as { items: s.Instance[] }) : found;
      },
    );
  }
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'An instance with its trail and upcoming nodes',
      params: s.IdParam,
      response: s.InstanceWithTrail,
    },
    async ({ principal, params, c }) =>
      instanceIn(requestLocale(c), await instances.getInstance(deps, principal, params.id)),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/detail',
      tags,
      summary: 'Approval detail: trail, form with my field permissions, my allowed actions, upcoming',
      params: s.IdParam,
      response: s.InstanceDetail,
    },
    async ({ principal, params, c }) => {
      const detail = await instances.getDetail(deps, principal, params.id);
      return { ...detail, instance: instanceIn(requestLocale(c), detail.instance) };
    },
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/submit-draft',
      tags,
      summary: 'Submit a draft (initiator only)',
      permissions: starters,
      params: s.IdParam,
      response: s.Instance,
    },
    async ({ principal, params, c }) =>
      instanceIn(requestLocale(c), await instances.submitDraft(deps, principal, params.id)),
  );

  // Lifecycle actions (who may is decided by the service: the initiator or workflow:instance:manage)
  actionEndpoints(
    r,
    [
      ['withdraw', 'Withdraw (initiator): the instance is terminated'],
      ['terminate', 'Terminate (workflow:instance:manage); a no-op on an ended instance'],
      ['complete', 'Complete (workflow:instance:manage)'],
      [
        'suspend',
        'Suspend: open tasks become suspended and every task action is refused until activation; a draft is 409',
      ],
      ['activate', 'Activate a suspended instance: its tasks get back the status they had'],
    ],
    { tags, params: s.IdParam, body: s.ActionBody, optionalBody: true, idempotent: true, response: s.InstanceStatus },
    (action, { principal, params, body, key }) =>
      lifecycle.instanceAction(deps, principal, params.id, action, body, key),
  );

  // Variables
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/variables',
      tags,
      summary: 'Process variables',
      params: s.IdParam,
      response: s.Variables,
    },
    ({ principal, params }) => variables.getVariables(deps, principal, params.id),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/variables/{variableName}',
      tags,
      summary: 'One process variable',
      params: s.VariableParam,
      response: z.object({ name: z.string(), value: z.unknown() }),
    },
    async ({ principal, params: { id, variableName } }) => {
      const vars = await variables.getVariables(deps, principal, id);
      if (!Object.hasOwn(vars, variableName)) throw new AppError('NOT_FOUND', `No variable ${variableName}`);
      return { name: variableName, value: vars[variableName] };
    },
  );
  variableWrites(
    r,
    {
      tags,
      owner: 'process',
      params: s.IdParam,
      variableParams: s.VariableParam,
      bodies: { set: s.SetVariablesBody, value: s.UpdateVariableBody },
      response: s.Variables,
    },
    (principal, id, change, key) => variables.writeVariables(deps, principal, id, change, key),
  );
  return r;
}
