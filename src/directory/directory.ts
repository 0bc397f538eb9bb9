import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { AppError, referenceError, type ReferenceProblem } from '../errors.js';
import { Department, Role, Tenant, User, type IDepartment, type IRole, type IUser } from '../db/entities/index.js';
import { hashPassword } from '../infra/passwords.js';
import type { PageOpts } from '../paging.js';
import { rowView } from '../db/views.js';
import { entityPages } from '../db/entity-pages.js';
import { requireRow } from '../db/row-lookup.js';
import { requireNoOpenWork } from './handover.js';

export function userView(u: IUser) {
  return rowView(u, [
    'id',
    'username',
    'displayName',
    'email?',
    'locale?',
    'deptId?',
    'managerId?',
    'roles',
    'active',
    'createdAt',
    'updatedAt',
  ]);
}
export type UserView = ReturnType<typeof userView>;

export function departmentView(d: IDepartment) {
  return rowView(d, ['id', 'name', 'parentId?', 'leaderId?']);
}
export type DepartmentView = ReturnType<typeof departmentView>;

export function roleView(r: IRole) {
  return rowView(r, ['code', 'name', 'permissions']);
}
export type RoleView = ReturnType<typeof roleView>;

const userPages = entityPages(User, userView);
const departmentPages = entityPages(Department, departmentView);
const rolePages = entityPages(Role, roleView);

/** The tenant's rows, narrowed by the filters that were given (unset and empty ones are left out). */
function filters(tenantId: string, given: Record<string, unknown>): Record<string, unknown> {
  return { tenantId, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value)) };
}

/** Inserts a row of `entity` whose checks have passed. */
async function insert<E extends object>(em: EntityManager, entity: EntityName<E>, data: object): Promise<E> {
  const row = em.create(entity, data as any);
  await em.flush();
  return row;
}

async function requireRefs(
  em: EntityManager,
  tenantId: string,
  refs: {
    deptId?: string | null;
    managerId?: string | null;
    roles?: string[];
    leaderId?: string | null;
    parentId?: string | null;
  },
) {
  // A name the tenant does not have: 404 REFERENCE_NOT_FOUND naming each field (docs/http.md).
  const missing: ReferenceProblem[] = [];
  if (refs.deptId && !(await em.findOne(Department, { tenantId, id: refs.deptId })))
    missing.push({ path: 'deptId', message: `no department ${refs.deptId}` });
  if (refs.parentId && !(await em.findOne(Department, { tenantId, id: refs.parentId })))
    missing.push({ path: 'parentId', message: `no department ${refs.parentId}` });
  if (refs.managerId && !(await em.findOne(User, { tenantId, id: refs.managerId })))
    missing.push({ path: 'managerId', message: `no user ${refs.managerId}` });
  if (refs.leaderId && !(await em.findOne(User, { tenantId, id: refs.leaderId })))
    missing.push({ path: 'leaderId', message: `no user ${refs.leaderId}` });
  if (refs.roles?.length) {
    const found = await em.find(Role, { tenantId, code: { $in: refs.roles } });
    refs.roles.forEach((code, i) => {
      if (!found.some((r) => r.code === code)) missing.push({ path: `roles.${i}`, message: `no role ${code}` });
    });
  }
  const err = referenceError(missing);
  if (err) throw err;
}

// ---------- the tenant keeps an administrator ----------

/** Active users of the tenant holding `*` or workflow:admin through one of their roles. */
async function activeAdmins(em: EntityManager, tenantId: string): Promise<number> {
  const rows = await em.execute<Array<{ n: number }>>(
    `select count(*)::int as n from users u
      where u.tenant_id = ? and u.active
        and exists (select 1 from roles r
                     where r.tenant_id = u.tenant_id and u.roles @> jsonb_build_array(r.code)
                       and (r.permissions @> '["*"]'::jsonb or r.permissions @> '["workflow:admin"]'::jsonb))`,
    [tenantId],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Runs a directory change in a transaction and refuses it (409, rolled back) when it leaves a
 * tenant that had an active administrator without one: nobody could repair instances or manage
 * the directory any more. A per-tenant advisory lock serialises such changes, so two requests
 * demoting the last two admins at once cannot both pass.
 */
async function keepingAnAdmin<T>(
  em: EntityManager,
  tenantId: string,
  change: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`directory-admins:${tenantId}`]);
    const before = await activeAdmins(tx, tenantId);
    const result = await change(tx);
    await tx.flush();
    if (before > 0 && (await activeAdmins(tx, tenantId)) === 0) {
      throw new AppError(
        'LAST_ADMIN',
        'This change would leave the tenant without an active user holding * or workflow:admin',
      );
    }
    return result;
  });
}

// ---------- users ----------

export function listUsers(
  em: EntityManager,
  tenantId: string,
  opts: PageOpts & { deptId?: string; role?: string; q?: string },
) {
  const where = filters(tenantId, {
    deptId: opts.deptId,
    $or: opts.q && [{ username: { $ilike: `%${opts.q}%` } }, { displayName: { $ilike: `%${opts.q}%` } }],
    roles: opts.role && { $contains: [opts.role] },
  });
  return userPages(em, where, { username: 'asc' }, opts);
}

export const getUser = (em: EntityManager, tenantId: string, id: string) =>
  requireRow(em, User, { tenantId, id }, `user ${id}`);

export interface UserInput {
  id?: string;
  username: string;
  displayName?: string;
  email?: string | null;
  locale?: string | null;
  password: string;
  deptId?: string | null;
  managerId?: string | null;
  roles?: string[];
  active?: boolean;
}
export type UserPatch = Partial<Omit<UserInput, 'id'>>;

export async function createUser(em: EntityManager, tenantId: string, input: UserInput): Promise<IUser> {
  const id = input.id ?? randomUUID();
  if (await em.findOne(User, { tenantId, $or: [{ id }, { username: input.username }] })) {
    throw new AppError('ALREADY_EXISTS', `A user with id ${id} or username ${input.username} exists`);
  }
  await requireRefs(em, tenantId, { deptId: input.deptId, managerId: input.managerId, roles: input.roles });
  return insert(em, User, {
    tenantId,
    id,
    username: input.username,
    displayName: input.displayName ?? input.username,
    email: input.email ?? null,
    locale: input.locale ?? null,
    passwordHash: await hashPassword(input.password),
    deptId: input.deptId ?? null,
    managerId: input.managerId ?? null,
    roles: input.roles ?? [],
    active: input.active ?? true,
  });
}

/** `actorId`: the caller, who may not deactivate themselves; a user with open work is handed over first (409). */
export async function updateUser(
  em: EntityManager,
  tenantId: string,
  id: string,
  patch: UserPatch,
  actorId?: string,
): Promise<IUser> {
  if (actorId === id && patch.active === false) throw new AppError('CONFLICT', 'You cannot deactivate yourself');
  // A deactivated user's tasks would wait for nobody: their work is handed over first.
  if (patch.active === false && (await getUser(em, tenantId, id)).active) await requireNoOpenWork(em, tenantId, id);
  if (patch.active === false || patch.roles)
    return keepingAnAdmin(em, tenantId, (tx) => applyUserPatch(tx, tenantId, id, patch));
  return applyUserPatch(em, tenantId, id, patch);
}

async function applyUserPatch(em: EntityManager, tenantId: string, id: string, patch: UserPatch): Promise<IUser> {
  const user = await getUser(em, tenantId, id);
  if (
    patch.username &&
    patch.username !== user.username &&
    (await em.findOne(User, { tenantId, username: patch.username }))
  ) {
    throw new AppError('ALREADY_EXISTS', `Username ${patch.username} is taken`);
  }
  // The body is well formed; the relation it asks for cannot hold (409, like a department cycle).
  if (patch.managerId === id) throw new AppError('CONFLICT', 'managerId: a user cannot manage themselves');
  await requireRefs(em, tenantId, { deptId: patch.deptId, managerId: patch.managerId, roles: patch.roles });
  const { password, ...rest } = patch;
  em.assign(user, rest as any);
  if (password) user.passwordHash = await hashPassword(password);
  await em.flush();
  return user;
}

/** A user's own language (`PATCH /api/v1/me`): the one field of their entry a user changes themselves. */
export async function setOwnLocale(em: EntityManager, tenantId: string, id: string, locale: string | null) {
  const user = await getUser(em, tenantId, id);
  user.locale = locale;
  await em.flush();
}

/** `actorId`: the caller, who may not delete themselves. */
export async function deleteUser(em: EntityManager, tenantId: string, id: string, actorId?: string): Promise<void> {
  if (actorId === id) throw new AppError('CONFLICT', 'You cannot delete yourself');
  await keepingAnAdmin(em, tenantId, async (tx) => {
    const user = await getUser(tx, tenantId, id);
    tx.remove(user);
  });
}

// ---------- departments ----------

export function listDepartments(em: EntityManager, tenantId: string, opts: PageOpts & { parentId?: string }) {
  return departmentPages(em, filters(tenantId, { parentId: opts.parentId }), { id: 'asc' }, opts);
}

export const getDepartment = (em: EntityManager, tenantId: string, id: string) =>
  requireRow(em, Department, { tenantId, id }, `department ${id}`);

export interface DepartmentInput {
  id?: string;
  name: string;
  parentId?: string | null;
  leaderId?: string | null;
}
export type DepartmentPatch = Partial<Omit<DepartmentInput, 'id'>>;

export async function createDepartment(
  em: EntityManager,
  tenantId: string,
  input: DepartmentInput,
): Promise<IDepartment> {
  const id = input.id ?? randomUUID();
  if (await em.findOne(Department, { tenantId, id })) throw new AppError('ALREADY_EXISTS', `Department ${id} exists`);
  await requireRefs(em, tenantId, { parentId: input.parentId, leaderId: input.leaderId });
  return insert(em, Department, {
    tenantId,
    id,
    name: input.name,
    parentId: input.parentId ?? null,
    leaderId: input.leaderId ?? null,
  });
}

export async function updateDepartment(em: EntityManager, tenantId: string, id: string, patch: DepartmentPatch) {
  const dept = await getDepartment(em, tenantId, id);
  if (patch.parentId) {
    // Refuse cycles in the tree: walk up from the new parent.
    for (let cur: string | null | undefined = patch.parentId; cur;) {
      if (cur === id) throw new AppError('CONFLICT', 'parentId: would make a cycle');
      cur = (await em.findOne(Department, { tenantId, id: cur }))?.parentId;
    }
  }
  await requireRefs(em, tenantId, { parentId: patch.parentId, leaderId: patch.leaderId });
  em.assign(dept, patch as any);
  await em.flush();
  return dept;
}

export async function deleteDepartment(em: EntityManager, tenantId: string, id: string): Promise<void> {
  const dept = await getDepartment(em, tenantId, id);
  const members = await em.count(User, { tenantId, deptId: id });
  const children = await em.count(Department, { tenantId, parentId: id });
  if (members || children)
    throw new AppError('IN_USE', `Department ${id} still has ${members} users and ${children} sub-departments`);
  em.remove(dept);
  await em.flush();
}

// ---------- roles ----------

export function listRoles(em: EntityManager, tenantId: string, opts: PageOpts) {
  return rolePages(em, { tenantId }, { code: 'asc' }, opts);
}

export const getRole = (em: EntityManager, tenantId: string, code: string) =>
  requireRow(em, Role, { tenantId, code }, `role ${code}`);

export async function createRole(
  em: EntityManager,
  tenantId: string,
  input: { code: string; name?: string; permissions?: string[] },
) {
  if (await em.findOne(Role, { tenantId, code: input.code }))
    throw new AppError('ALREADY_EXISTS', `Role ${input.code} exists`);
  return insert(em, Role, {
    tenantId,
    code: input.code,
    name: input.name ?? input.code,
    permissions: input.permissions ?? [],
  });
}

export async function updateRole(
  em: EntityManager,
  tenantId: string,
  code: string,
  patch: { name?: string; permissions?: string[] },
) {
  return keepingAnAdmin(em, tenantId, async (tx) => {
    const role = await getRole(tx, tenantId, code);
    tx.assign(role, patch as any);
    return role;
  });
}

export async function deleteRole(em: EntityManager, tenantId: string, code: string): Promise<void> {
  await keepingAnAdmin(em, tenantId, async (tx) => {
    const role = await getRole(tx, tenantId, code);
    const holders = await tx.count(User, { tenantId, roles: { $contains: [code] } } as any);
    if (holders) throw new AppError('IN_USE', `Role ${code} is held by ${holders} users`);
    tx.remove(role);
  });
}

// ---------- tenants ----------

export async function createTenant(
  em: EntityManager,
  input: { id: string; name: string; admin: { username: string; password: string; displayName?: string } },
) {
  return em.transactional(async (tx) => {
    if (await tx.findOne(Tenant, { id: input.id })) throw new AppError('ALREADY_EXISTS', `Tenant ${input.id} exists`);
    tx.create(Tenant, { id: input.id, name: input.name } as any);
    await tx.flush();
    tx.create(Role, { tenantId: input.id, code: 'admin', name: 'Administrator', permissions: ['*'] } as any);
    await tx.flush();
    const admin = await createUser(tx, input.id, {
      id: input.admin.username,
      username: input.admin.username,
      displayName: input.admin.displayName,
      password: input.admin.password,
      roles: ['admin'],
    });
    return { id: input.id, name: input.name, admin: userView(admin) };
  });
}

/** The user's permissions: the union over their roles. */
export async function permissionsOf(em: EntityManager, tenantId: string, roles: string[]): Promise<Set<string>> {
  if (!roles.length) return new Set();
  const found = await em.find(Role, { tenantId, code: { $in: roles } });
  return new Set(found.flatMap((r) => r.permissions));
}
