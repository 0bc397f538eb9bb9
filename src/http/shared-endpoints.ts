// Endpoint shapes several routers share: deleting one resource, the state changes of a catalogue
// version (definitions, forms) and writing a variable map (an instance's, a task's).
import { z } from '@hono/zod-openapi';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../context.js';
import { actionEndpoints, endpoint, type createRouter, type EndpointInput } from './router.js';
import { em } from './middleware/auth.js';

type Router = ReturnType<typeof createRouter>;

const Deleted = z.object({ deleted: z.literal(true) });

/** `DELETE <path>`: `remove` runs, then the answer is `{ deleted: true }`. */
export function deleteEndpoint<P extends z.ZodType>(
  router: Router,
  spec: { path: string; tags: string[]; summary: string; permissions?: string[]; params: P },
  remove: (input: EndpointInput<P, undefined, undefined>) => Promise<void>,
) {
  endpoint(router, { ...spec, method: 'delete', response: Deleted }, async (input) => {
    await remove(input);
    return { deleted: true as const };
  });
}

type VersionChange<R> = (em: EntityManager, tenantId: string, userId: string, id: string) => Promise<R>;

/** `POST /{id}/<change>` for each change of one catalogue version: `[summary, service]`; answers the row after it. */
export function versionChanges<R>(
  router: Router,
  spec: { tags: string[]; permissions: string[]; params: z.ZodType<{ id: string }>; response: z.ZodType },
  view: (row: R) => unknown,
  changes: Record<string, readonly [summary: string, change: VersionChange<R>]>,
) {
  actionEndpoints(
    router,
    Object.entries(changes).map(([action, [summary]]) => [action, summary] as const),
    spec,
    async (action, { principal: p, params, c }) =>
      view(await changes[action]![1](em(c), p.tenantId, p.userId, params.id)),
  );
}

export type VariableChange = { set: Record<string, unknown> } | { delete: string[] };

/**
 * Writing a variable map: `POST /{id}/variables` merges several, `PUT` and `DELETE
 * /{id}/variables/{variableName}` set or remove one; each is idempotent and answers the variables.
 */
export function variableWrites(
  router: Router,
  spec: {
    tags: string[];
    permissions?: string[];
    /** Whose variables, as the summaries name them (`process`, `task`). */
    owner: string;
    /** What the merge's summary adds. */
    mergeNote?: string;
    params: z.ZodType<{ id: string }>;
    variableParams: z.ZodType<{ id: string; variableName: string }>;
    bodies: { set: z.ZodType<{ variables: Record<string, unknown> }>; value: z.ZodType<{ value?: unknown }> };
    response: z.ZodType;
  },
  write: (principal: Principal, id: string, change: VariableChange, key: string | undefined) => Promise<unknown>,
) {
  const { owner, mergeNote, params, variableParams, bodies, ...common } = spec;
  const writes = { ...common, idempotent: true };
  endpoint(
    router,
    {
      ...writes,
      method: 'post',
      path: '/{id}/variables',
      summary: `Set several ${owner} variables (merge${mergeNote ? `; ${mergeNote}` : ''})`,
      params,
      body: bodies.set,
    },
    ({ principal, params, body, key }) => write(principal, params.id, { set: body.variables }, key),
  );
  endpoint(
    router,
    {
      ...writes,
      method: 'put',
      path: '/{id}/variables/{variableName}',
      summary: `Update one ${owner} variable`,
      params: variableParams,
      body: bodies.value,
    },
    ({ principal, params, body, key }) =>
      write(principal, params.id, { set: { [params.variableName]: body.value ?? null } }, key),
  );
  endpoint(
    router,
    {
      ...writes,
      method: 'delete',
      path: '/{id}/variables/{variableName}',
      summary: `Delete one ${owner} variable`,
      params: variableParams,
    },
    ({ principal, params, key }) => write(principal, params.id, { delete: [params.variableName] }, key),
  );
}
