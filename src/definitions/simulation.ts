// POST /process-definitions/simulate: the path a start would take, with the real directory and
// the variables given — nothing started, nothing written. Read from the same path ahead as an
// instance's upcoming steps (prediction.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProcessDocument } from '../../dsl/index.js';
import { referenceError } from '../errors.js';
import type { Principal } from '../context.js';
import { Department, Role, User } from '../db/entities/index.js';
import { checkProcess, getDefinition } from './definitions.js';
import { checkVariables } from './form-values.js';
import { predictPath, type PredictedStep } from './prediction.js';

export interface SimulateInput {
  dsl?: Record<string, unknown>;
  definitionId?: string;
  initiatorId?: string;
  variables?: Record<string, unknown>;
}

/** The document to run: a DSL through the deploy validator, a draft likewise, a published version as stored. */
async function documentOf(em: EntityManager, tenantId: string, input: SimulateInput) {
  const row = input.definitionId === undefined ? null : await getDefinition(em, tenantId, input.definitionId);
  let doc = row?.dsl as unknown as ProcessDocument | undefined;
  if (!row || row.status === 'draft') {
    const checked = await checkProcess(em, tenantId, row ? row.dsl : input.dsl);
    if (!checked.ok) throw checked.refusal; // deploy's own 422
    doc = checked.doc;
  }
  return { row, doc: doc! };
}

/** The initiator the start would have: an active user of the tenant, else 404 / 409 naming the field. */
async function initiatorOf(em: EntityManager, tenantId: string, id: string) {
  const user = await em.findOne(User, { tenantId, id });
  const err = !user
    ? referenceError([{ path: 'initiatorId', message: `no user ${id} in this tenant` }])
    : !user.active
      ? referenceError([], [{ path: 'initiatorId', message: `user ${id} is not active` }])
      : null;
  if (err) throw err;
  return user!;
}

export async function simulate(em: EntityManager, principal: Principal, input: SimulateInput) {
  const { tenantId } = principal;
  const { row, doc } = await documentOf(em, tenantId, input);
  const initiator = await initiatorOf(em, tenantId, input.initiatorId ?? principal.userId);
  const variables = input.variables ?? {};
  // As a draft start: the values given must fit the form; missing ones leave steps undecided.
  checkVariables(doc.ruleChain.additionalInfo?.form, variables, { requireAll: false });
  const first = doc.metadata.nodes[doc.metadata.firstNodeIndex ?? 0];
  const steps = await predictPath(em, {
    info: {
      id: '', // no instance: metadata.instance_id reads as empty
      tenantId,
      definitionId: row?.id ?? '',
      processKey: doc.ruleChain.id,
      processVersion: row?.version ?? null,
      processName: doc.ruleChain.name,
      businessKey: null,
      initiatorId: initiator.id,
      startTime: new Date().toISOString(),
    },
    doc,
    variables,
    from: [first.id],
    withStarts: true,
  });
  const names = await namesOf(em, tenantId, steps);
  return {
    definitionId: row?.id ?? null,
    processKey: doc.ruleChain.id,
    processVersion: row?.version ?? null,
    initiatorId: initiator.id,
    steps: steps.map((step) => stepView(step, names.users)),
    names: {
      users: Object.fromEntries(names.users),
      roles: Object.fromEntries(names.roles),
      departments: Object.fromEntries(names.departments),
    },
  };
}

/** The names of every person, role and department the path names, so a pool reads as words, not ids. */
async function namesOf(em: EntityManager, tenantId: string, steps: PredictedStep[]) {
  const distinct = (pick: (a: NonNullable<PredictedStep['assignment']>) => string[]) => [
    ...new Set(steps.flatMap((s) => (s.assignment ? pick(s.assignment) : []))),
  ];
  const userIds = distinct((a) => [...a.approvers.map((x) => x.userId), ...a.candidates.userIds]);
  const roleIds = distinct((a) => a.candidates.roleIds);
  const deptIds = distinct((a) => a.candidates.deptIds);
  const [users, roles, departments] = await Promise.all([
    userIds.length ? em.find(User, { tenantId, id: { $in: userIds } }, { fields: ['id', 'displayName'] }) : [],
    roleIds.length ? em.find(Role, { tenantId, code: { $in: roleIds } }, { fields: ['code', 'name'] }) : [],
    deptIds.length ? em.find(Department, { tenantId, id: { $in: deptIds } }, { fields: ['id', 'name'] }) : [],
  ]);
  return {
    users: new Map(users.map((u) => [u.id, u.displayName])),
    roles: new Map(roles.map((r) => [r.code, r.name])),
    departments: new Map(departments.map((d) => [d.id, d.name])),
  };
}

function stepView({ node, undecided, undecidedBy, assignment, decision }: PredictedStep, names: Map<string, string>) {
  return {
    node: { id: node.id, type: node.type, name: node.name ?? null },
    undecided,
    undecidedBy,
    assignment: assignment && {
      ...assignment,
      approvers: assignment.approvers.map((a) => ({ ...a, displayName: names.get(a.userId) ?? a.userId })),
    },
    decision,
  };
}

export type Simulation = Awaited<ReturnType<typeof simulate>>;
