import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { AppError, referenceError, type ReferenceProblem } from '../errors.js';
import { Department, Role, Tenant, User, type IDepartment, type IRole, type IUser } from '../db/entities/index.js';
import { hashPassword } from '../infra/passwords.js';
import type { Page, PageOpts } from '../paging.js';
import { rowView } from '../db/views.js';
import { entityPages } from '../db/entity-pages.js';
import { requireRow } from '../db/row-lookup.js';
import { requireNoOpenWork } from './handover.js';
import {
  departmentSearchText,
  normalise,
  queryPatterns,
  rankParams,
  rankSql,
  roleSearchText,
  userSearchText,
} from './people-search.js';

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

export async function listUsers(
  em: EntityManager,
  tenantId: string,
  opts: PageOpts & { deptId?: string; role?: string; active?: 'true' | 'false'; q?: string },
) {
  const q = opts.q === undefined ? '' : normalise(opts.q);
  if (!q) {
    const where = filters(tenantId, {
      deptId: opts.deptId,
      roles: opts.role && { $contains: [opts.role] },
    });
    if (opts.active) Object.assign(where, { active: opts.active === 'true' });
    return userPages(em, where, { username: 'asc' }, opts);
  }
  const narrow: Narrowing = [];
  if (opts.deptId) narrow.push(['dept_id = ?', opts.deptId]);
  if (opts.role) narrow.push(['roles @> ?::jsonb', JSON.stringify([opts.role])]);
  if (opts.active) narrow.push(['active = ?', opts.active === 'true']);
  return searchPages(em, tenantId, searchables.users, q, narrow, opts);
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
    searchText: await userText(em, tenantId, { ...input, displayName: input.displayName ?? input.username }),
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

/** The most users one `POST /users/batch` creates. */
export const MAX_USER_BATCH = 1000;

/**
 * Creates `inputs` at once (an HR import), all or none: the checks of createUser for each (paths
 * `users.<i>.<field>`), where a manager may be another user of the same call. Users of one call
 * who share a password share its hash (one Argon2id hash per distinct password: an import's
 * initial password would otherwise cost a hash per person).
 */
export async function createUsers(em: EntityManager, tenantId: string, inputs: UserInput[]): Promise<string[]> {
  const ids = inputs.map((u) => u.id ?? randomUUID());
  const clash = (values: string[], what: string) => {
    const seen = new Map<string, number>();
    values.forEach((v, i) => {
      if (seen.has(v))
        throw new AppError('ALREADY_EXISTS', `users.${i}: ${what} ${v} is also users.${seen.get(v)} of this batch`);
      seen.set(v, i);
    });
  };
  clash(ids, 'id');
  clash(
    inputs.map((u) => u.username),
    'username',
  );
  const taken = await em.execute<Array<{ id: string; username: string }>>(
    `select id, username from users where tenant_id = ?
        and (id = any(array(select jsonb_array_elements_text(?::jsonb)))
          or username = any(array(select jsonb_array_elements_text(?::jsonb)))) limit 1`,
    [tenantId, JSON.stringify(ids), JSON.stringify(inputs.map((u) => u.username))],
  );
  if (taken[0]) {
    const i = Math.max(
      ids.indexOf(taken[0].id),
      inputs.findIndex((u) => u.username === taken[0]!.username),
    );
    throw new AppError(
      'ALREADY_EXISTS',
      `users.${i}: a user with id ${ids[i]} or username ${inputs[i]!.username} exists`,
    );
  }
  const existing = async (table: string, column: string, values: Array<string | null | undefined>) => {
    const wanted = [...new Set(values.filter((v): v is string => !!v))];
    if (!wanted.length) return new Set<string>();
    const rows = await em.execute<Array<{ v: string }>>(
      `select ${column} as v from ${table} where tenant_id = ? and ${column} = any(array(select jsonb_array_elements_text(?::jsonb)))`,
      [tenantId, JSON.stringify(wanted)],
    );
    return new Set(rows.map((r) => r.v));
  };
  const depts = await existing(
    'departments',
    'id',
    inputs.map((u) => u.deptId),
  );
  const managers = await existing(
    'users',
    'id',
    inputs.map((u) => u.managerId),
  );
  ids.forEach((id) => managers.add(id));
  const roles = await existing(
    'roles',
    'code',
    inputs.flatMap((u) => u.roles ?? []),
  );
  const missing: ReferenceProblem[] = [];
  inputs.forEach((u, i) => {
    if (u.deptId && !depts.has(u.deptId))
      missing.push({ path: `users.${i}.deptId`, message: `no department ${u.deptId}` });
    if (u.managerId && !managers.has(u.managerId))
      missing.push({ path: `users.${i}.managerId`, message: `no user ${u.managerId}` });
    u.roles?.forEach((code, j) => {
      if (!roles.has(code)) missing.push({ path: `users.${i}.roles.${j}`, message: `no role ${code}` });
    });
  });
  const err = referenceError(missing);
  if (err) throw err;
  const deptNames = new Map(
    (await em.find(Department, { tenantId, id: { $in: [...depts] } })).map((d) => [d.id, d.name] as const),
  );
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (password: string) => {
    if (!hashes.has(password)) hashes.set(password, hashPassword(password));
    return hashes.get(password)!;
  };
  const rows = await Promise.all(
    inputs.map(async (u, i) => {
      const displayName = u.displayName ?? u.username;
      return {
        tenant_id: tenantId,
        id: ids[i]!,
        username: u.username,
        display_name: displayName,
        email: u.email ?? null,
        locale: u.locale ?? null,
        password_hash: await hashOf(u.password),
        dept_id: u.deptId ?? null,
        manager_id: u.managerId ?? null,
        roles: u.roles ?? [],
        active: u.active ?? true,
        search_text: userSearchText({
          displayName,
          username: u.username,
          email: u.email,
          deptName: u.deptId ? deptNames.get(u.deptId) : null,
        }),
      };
    }),
  );
  // One statement: all rows or none; (tenant_id, id) and (tenant_id, username) stay unique if a
  // concurrent create took a name after the check above (the unique violation answers 409).
  await em
    .execute(
      `insert into users (tenant_id, id, username, display_name, email, locale, password_hash, dept_id, manager_id,
                        roles, active, search_text)
     select tenant_id, id, username, display_name, email, locale, password_hash, dept_id, manager_id,
            roles, active, search_text
       from jsonb_to_recordset(?::jsonb) as v(tenant_id text, id text, username text, display_name text, email text,
            locale text, password_hash text, dept_id text, manager_id text, roles jsonb, active boolean, search_text text)`,
      [JSON.stringify(rows)],
    )
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '23505')
        throw new AppError('ALREADY_EXISTS', 'A user of this batch was created meanwhile with the same id or username');
      throw err;
    });
  return ids;
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
  user.searchText = await userText(em, tenantId, user);
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

export async function listDepartments(
  em: EntityManager,
  tenantId: string,
  opts: PageOpts & { parentId?: string; q?: string },
) {
  const q = opts.q === undefined ? '' : normalise(opts.q);
  if (!q) return departmentPages(em, filters(tenantId, { parentId: opts.parentId }), { id: 'asc' }, opts);
  const narrow: Narrowing = opts.parentId ? [['parent_id = ?', opts.parentId]] : [];
  return searchPages(em, tenantId, searchables.departments, q, narrow, opts);
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
    searchText: departmentSearchText(input),
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
  const renamed = patch.name !== undefined && patch.name !== dept.name;
  em.assign(dept, patch as any);
  dept.searchText = departmentSearchText(dept);
  await em.flush();
  // Its members' search texts name the department: the next search fills them again.
  if (renamed)
    await em.execute(`update users set search_text = null where tenant_id = ? and dept_id = ?`, [tenantId, id]);
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

export async function listRoles(em: EntityManager, tenantId: string, opts: PageOpts & { q?: string }) {
  const q = opts.q === undefined ? '' : normalise(opts.q);
  if (!q) return rolePages(em, { tenantId }, { code: 'asc' }, opts);
  return searchPages(em, tenantId, searchables.roles, q, [], opts);
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
    searchText: roleSearchText({ code: input.code, name: input.name ?? input.code }),
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
    role.searchText = roleSearchText(role);
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

// ---------- search (q on the lists; src/directory/people-search.ts, docs/contract.md#searching-the-directory) ----------

/** Extra conditions of a search: SQL on the searched table's columns with one `?` and its value. */
type Narrowing = Array<[string, unknown]>;

/** The user's search text: their names, e-mail and department's name. */
async function userText(
  em: EntityManager,
  tenantId: string,
  u: { displayName: string; username: string; email?: string | null; deptId?: string | null },
) {
  // The department was loaded by requireRefs: the identity map answers.
  const dept = u.deptId ? await em.findOne(Department, { tenantId, id: u.deptId }) : null;
  return userSearchText({ ...u, deptName: dept?.name });
}

/** A searchable list: its table, key column, name column (the order among equals) and how a row's text is made. */
interface Searchable<E, V> {
  entity: EntityName<E>;
  table: string;
  key: 'id' | 'code';
  name: string;
  /** The rows without a search text (at most `limit`), with what their text is made of. */
  pending: string;
  text(row: Record<string, string | null>): string;
  view(row: E): V;
}

const searchables = {
  users: {
    entity: User,
    table: 'users',
    key: 'id',
    name: 'display_name',
    pending: `select u.id as key, u.display_name, u.username, u.email, d.name as dept_name
                from users u left join departments d on d.tenant_id = u.tenant_id and d.id = u.dept_id
               where u.tenant_id = ? and u.search_text is null limit ?`,
    text: (r) =>
      userSearchText({ displayName: r.display_name!, username: r.username!, email: r.email, deptName: r.dept_name }),
    view: userView,
  } satisfies Searchable<IUser, UserView>,
  departments: {
    entity: Department,
    table: 'departments',
    key: 'id',
    name: 'name',
    pending: `select id as key, name from departments where tenant_id = ? and search_text is null limit ?`,
    text: (r) => departmentSearchText({ name: r.name! }),
    view: departmentView,
  } satisfies Searchable<IDepartment, DepartmentView>,
  roles: {
    entity: Role,
    table: 'roles',
    key: 'code',
    name: 'name',
    pending: `select code as key, code, name from roles where tenant_id = ? and search_text is null limit ?`,
    text: (r) => roleSearchText({ code: r.code!, name: r.name! }),
    view: roleView,
  } satisfies Searchable<IRole, RoleView>,
};

const FILL_BATCH = 2000;

/**
 * Fills the search text of the tenant's rows that have none: rows from before the search existed,
 * written by SQL or the seed, or members of a renamed department. pinyin-pro runs here, not in SQL.
 * Cheap when there are none (a partial index holds exactly those rows).
 */
async function fillSearchTexts<E, V>(em: EntityManager, tenantId: string, s: Searchable<E, V>) {
  for (;;) {
    const rows = await em.execute<Array<Record<string, string | null>>>(s.pending, [tenantId, FILL_BATCH]);
    if (!rows.length) return;
    const texts = rows.map((r) => ({ k: r.key, t: s.text(r) }));
    // Only rows still without one: a write in between has set its own.
    await em.execute(
      `update ${s.table} x set search_text = v.t from jsonb_to_recordset(?::jsonb) as v(k text, t text)
        where x.tenant_id = ? and x.${s.key} = v.k and x.search_text is null`,
      [JSON.stringify(texts), tenantId],
    );
    if (rows.length < FILL_BATCH) return;
  }
}

/**
 * Fills every tenant's rows without a search text (at start, after the migrations: the first search
 * of a big tenant need not wait for it). Safe to run beside searches and writes.
 */
export async function fillAllSearchTexts(em: EntityManager): Promise<number> {
  let tenants = 0;
  for (const s of Object.values(searchables) as Array<Searchable<unknown, unknown>>) {
    const rows = await em.execute<Array<{ tenant_id: string }>>(
      `select distinct tenant_id from ${s.table} where search_text is null`,
    );
    for (const { tenant_id } of rows) await fillSearchTexts(em, tenant_id, s);
    tenants += rows.length;
  }
  return tenants;
}

/**
 * One page of the rows matching `q` (normalised, not empty), best first: a whole term, a term's
 * start, a word's start, anywhere; then by name. A query shorter than three characters matches
 * starts only: anywhere would match most rows, and pg_trgm needs three characters to use its index.
 */
async function searchPages<E extends object, V>(
  em: EntityManager,
  tenantId: string,
  s: Searchable<E, V>,
  q: string,
  narrow: Narrowing,
  opts: PageOpts,
): Promise<Page<V>> {
  await fillSearchTexts(em, tenantId, s);
  const p = queryPatterns(q);
  const match = [...q].length < 3 ? '(search_text like ? or search_text like ?)' : 'search_text like ?';
  const matchParams = [...q].length < 3 ? [p.prefix, p.wordPrefix] : [p.contains];
  const where = ['tenant_id = ?', match, ...narrow.map(([sql]) => sql)].join(' and ');
  const whereParams = [tenantId, ...matchParams, ...narrow.map(([, value]) => value)];
  const rows = await em.execute<Array<{ key: string; total: string }>>(
    `select key, count(*) over () as total
       from (select ${s.key} as key, ${s.name} as name, ${rankSql('search_text')} as rank
               from ${s.table} where ${where}) hit
      order by rank, name, key limit ? offset ?`,
    [...rankParams(p), ...whereParams, opts.pageSize, (opts.page - 1) * opts.pageSize],
  );
  const total = rows.length
    ? Number(rows[0]!.total)
    : Number(
        (await em.execute<Array<{ n: string }>>(`select count(*) as n from ${s.table} where ${where}`, whereParams))[0]
          ?.n ?? 0,
      );
  const keys = rows.map((r) => r.key);
  const found = keys.length ? await em.find(s.entity, { tenantId, [s.key]: { $in: keys } } as any) : [];
  const byKey = new Map(found.map((row) => [(row as Record<string, unknown>)[s.key], row]));
  const items = keys.flatMap((k) => {
    const row = byKey.get(k);
    return row ? [s.view(row)] : [];
  });
  return { items, total, page: opts.page, pageSize: opts.pageSize };
}
