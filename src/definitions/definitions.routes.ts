import * as definitions from './definitions.js';
import { compareVersions } from './definition-compare.js';
import { simulate } from './simulation.js';
import { problemMessageIn } from '../../dsl/problems.zh-CN.js';
import type { AssignmentReason } from '../read-model/assignment-reason.js';
import { reasonIn } from '../read-model/assignment-reason.zh-CN.js';
import { requestLocale, type ApiLocale } from '../http/locale.js';
import { Permissions } from '../permissions.js';
import { json, jsonBody, ok, page } from '../http/envelope.js';
import { createRouter, defineRoute, endpoint } from '../http/router.js';
import { em, requirePermission } from '../http/middleware/auth.js';
import * as s from './definitions.schemas.js';
import { deleteEndpoint, versionChanges } from '../http/shared-endpoints.js';

// The sentences inside these answers in the caller's language (docs/http.md "Languages"): validation
// problems said again from their code and params, assignment reasons from their kind and fields.

type ProblemLike = { code?: string; params?: Record<string, unknown>; message: string };

/** A validation report (`POST …/validate`): each problem's message in `locale`. */
export function reportIn<T extends { problems: ProblemLike[] }>(locale: ApiLocale, report: T): T {
  if (locale === 'en') return report;
  return { ...report, problems: report.problems.map((p) => ({ ...p, message: problemMessageIn(locale, p) })) };
}

type WithReason = { reason: AssignmentReason | null };

/** A simulation (`POST …/simulate`): every approver's and assignment's reason in `locale`. */
export function simulationIn<
  T extends {
    steps: Array<{ assignment: (WithReason & { approvers: Array<{ reason: AssignmentReason }> }) | null }>;
  },
>(locale: ApiLocale, simulation: T): T {
  if (locale === 'en') return simulation;
  return {
    ...simulation,
    steps: simulation.steps.map((step) =>
      step.assignment
        ? {
            ...step,
            assignment: {
              ...step.assignment,
              reason: reasonIn(locale, step.assignment.reason),
              approvers: step.assignment.approvers.map((a) => ({ ...a, reason: reasonIn(locale, a.reason) })),
            },
          }
        : step,
    ),
  };
}

const tags = ['process-definitions'];
const { DEFINITION_READ: READ, DEFINITION_WRITE: WRITE } = Permissions;
const Versions = s.DefinitionQuery.pick({ page: true, pageSize: true });

/** `/api/v1/workflow/process-definitions` — fixed paths are registered before `/{id}`. */
export function definitionRoutes() {
  const r = createRouter();
  const view = definitions.definitionView;

  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'List definitions (filters: key, name, category, status; q searches name, key, category, description)',
      permissions: [READ],
      query: s.DefinitionQuery,
      response: page(s.Definition),
    },
    ({ principal, query, c }) => definitions.listDefinitions(em(c), principal.tenantId, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/categories',
      tags,
      summary: 'Startable (active) processes grouped by category',
      permissions: [Permissions.INSTANCE_START, Permissions.CREATE, READ],
      response: s.Category.array(),
    },
    ({ principal, c }) => definitions.listCategories(em(c), principal.tenantId),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/key/{processKey}',
      tags,
      summary: 'The active version of a key (404 when none)',
      permissions: [READ],
      params: s.KeyParam,
      response: s.Definition,
    },
    async ({ principal, params, c }) =>
      view(await definitions.getActiveDefinition(em(c), principal.tenantId, params.processKey)),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/key/{processKey}/versions',
      tags,
      summary: 'All versions of a key, newest first',
      permissions: [READ],
      params: s.KeyParam,
      query: Versions,
      response: page(s.Definition),
    },
    ({ principal, params, query, c }) => definitions.versionsByKey(em(c), principal.tenantId, params.processKey, query),
  );
  // Two answers (201 deployed, 200 unchanged with skipIfUnchanged), so not the one-status `endpoint`.
  const deployRoute = defineRoute({
    method: 'post',
    middleware: [requirePermission(WRITE)],
    path: '/deploy',
    tags,
    summary: 'Deploy a DSL (or publish a draft): next version, active; the previous active one is retired',
    description:
      "Every deploy is the next version. With `skipIfUnchanged: true` a document equal to the active version's " +
      '(docs/definitions.md "Publishing an unchanged document") answers that version with 200 and writes nothing.',
    request: { body: jsonBody(s.DeployBody) },
    responses: {
      201: json(s.Definition, 'Deployed: the next version, now active'),
      200: json(s.Definition, 'Unchanged (skipIfUnchanged): the active version, as it was; nothing written'),
    },
  });
  r.openapi(deployRoute, async (c) => {
    const p = c.get('principal');
    const body = c.req.valid('json');
    const { definition, unchanged } = await definitions.deploy(em(c), p.tenantId, p.userId, body);
    return c.json(ok(view(definition)), unchanged ? 200 : 201);
  });
  const importRoute = defineRoute({
    method: 'post',
    middleware: [requirePermission(WRITE)],
    path: '/import',
    tags,
    summary: 'Import a DSL JSON file (multipart field `file`) or body `{ dsl }`; an existing key gets the next version',
    request: {
      // Not required for the validators: the one of the content type that was sent runs, the other
      // is skipped. The document says required (below): one of the two bodies must come.
      body: {
        required: false,
        content: {
          'application/json': { schema: s.DslBody },
          'multipart/form-data': { schema: s.ImportForm, encoding: s.ImportFormEncoding },
        },
      },
    },
    responses: { 201: json(s.Definition, 'Imported') },
  });
  r.openapi(importRoute, async (c) => {
    const p = c.get('principal');
    const form = c.req.valid('form') as { file?: File | string };
    const dsl = form.file
      ? await definitions.readDslFile(form.file)
      : (c.req.valid('json') as { dsl?: Record<string, unknown> }).dsl;
    return c.json(ok(view(await definitions.importDsl(em(c), p.tenantId, p.userId, dsl))), 201);
  });
  // The validators are built; the document (built from the same object) states the truth.
  (importRoute.request.body as { required: boolean }).required = true;
  endpoint(
    r,
    {
      method: 'post',
      path: '/validate-conditions',
      tags,
      summary: 'Check the conditions of a DSL, or a list of expressions',
      permissions: [READ, WRITE],
      body: s.ValidateConditionsBody,
      response: s.ConditionsReport,
    },
    ({ principal, body, c }) => definitions.checkConditions(em(c), principal.tenantId, body),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/validate',
      tags,
      summary: "Run deploy's validator on a DSL and write nothing: every problem with its code and params",
      permissions: [WRITE],
      body: s.DslBody,
      response: s.ValidationReport,
    },
    async ({ principal, body, c }) =>
      reportIn(requestLocale(c), await definitions.validateDefinition(em(c), principal.tenantId, body.dsl)),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/simulate',
      tags,
      summary:
        'The path a start would take (a DSL or a definition), with the real directory and the variables given; nothing started',
      permissions: [WRITE],
      body: s.SimulateBody,
      response: s.Simulation,
    },
    async ({ principal, body, c }) => simulationIn(requestLocale(c), await simulate(em(c), principal, body)),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: 'Create a draft',
      permissions: [WRITE],
      body: s.DslBody,
      status: 201,
      response: s.Definition,
      responseDescription: 'Created',
    },
    async ({ principal: p, body, c }) => view(await definitions.createDraft(em(c), p.tenantId, p.userId, body.dsl)),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'One definition',
      permissions: [READ],
      params: s.IdParam,
      response: s.Definition,
    },
    async ({ principal, params, c }) => view(await definitions.getDefinition(em(c), principal.tenantId, params.id)),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/versions',
      tags,
      summary: 'All versions of the key of this definition, newest first',
      permissions: [READ],
      params: s.IdParam,
      query: Versions,
      response: page(s.Definition),
    },
    ({ principal, params, query, c }) => definitions.versionsById(em(c), principal.tenantId, params.id, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/compare/{otherId}',
      tags,
      summary: 'What changed from this definition to another: nodes added, removed and changed, connections',
      permissions: [READ],
      params: s.CompareParams,
      response: s.Comparison,
    },
    ({ principal, params, c }) => compareVersions(em(c), principal.tenantId, params.id, params.otherId),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Update a draft (409 unless a draft)',
      permissions: [WRITE],
      params: s.IdParam,
      body: s.DslBody,
      response: s.Definition,
    },
    async ({ principal: p, params, body, c }) =>
      view(await definitions.updateDraft(em(c), p.tenantId, p.userId, params.id, body.dsl)),
  );
  deleteEndpoint(
    r,
    {
      path: '/{id}',
      tags,
      summary: 'Delete a draft, or a version no instance uses (409 otherwise)',
      permissions: [WRITE],
      params: s.IdParam,
    },
    ({ principal, params, c }) => definitions.deleteDefinition(em(c), principal.tenantId, params.id),
  );
  versionChanges(r, { tags, permissions: [WRITE], params: s.IdParam, response: s.Definition }, view, {
    activate: ['Publish a draft, or make a retired version the active one again', definitions.activate],
    retire: ['Retire the active version (409 for a draft)', definitions.retire],
  });
  return r;
}
