import type { EntityManager } from '@mikro-orm/postgresql';
import { Department, Role, Tenant, User } from '../db/entities/index.js';
import { hashPassword } from '../infra/passwords.js';
import { Permissions, SYSTEM_TENANT } from '../permissions.js';

/** The demo tenant's `employee` role (scripts/fuzz.ts puts it back after a pass). */
export const EMPLOYEE = [
  Permissions.INSTANCE_START,
  Permissions.CREATE,
  Permissions.OPERATE,
  Permissions.DEFINITION_READ,
];

const DEMO_DEPARTMENTS = [
  { id: 'eng', name: 'Engineering', leaderId: 'bob' },
  { id: 'exec', name: 'Executive', leaderId: 'dave' },
  { id: 'hr', name: 'Human Resources', leaderId: 'erin' },
  { id: 'finance', name: 'Finance', leaderId: 'frank' },
];

const DEMO_USERS = [
  { id: 'alice', displayName: 'Alice', deptId: 'eng', managerId: 'bob', roles: ['employee'] },
  { id: 'bob', displayName: 'Bob', deptId: 'eng', managerId: 'carol', roles: ['employee'] },
  { id: 'carol', displayName: 'Carol', deptId: 'exec', managerId: 'dave', roles: ['employee'] },
  { id: 'dave', displayName: 'Dave', deptId: 'exec', managerId: null, roles: ['employee'] },
  { id: 'erin', displayName: 'Erin', deptId: 'hr', managerId: 'carol', roles: ['employee'] },
  { id: 'frank', displayName: 'Frank', deptId: 'finance', managerId: 'dave', roles: ['employee', 'finance'] },
  { id: 'grace', displayName: 'Grace', deptId: 'finance', managerId: 'frank', roles: ['employee', 'finance'] },
];

async function ensureUser(
  em: EntityManager,
  tenantId: string,
  u: { id: string; displayName: string; deptId?: string | null; managerId?: string | null; roles: string[] },
  password: string,
) {
  if (await em.findOne(User, { tenantId, id: u.id })) return;
  em.create(User, {
    tenantId,
    id: u.id,
    username: u.id,
    displayName: u.displayName,
    passwordHash: await hashPassword(password),
    deptId: u.deptId ?? null,
    managerId: u.managerId ?? null,
    roles: u.roles,
    active: true,
  } as any);
}

async function ensureRole(em: EntityManager, tenantId: string, code: string, name: string, permissions: string[]) {
  if (!(await em.findOne(Role, { tenantId, code }))) em.create(Role, { tenantId, code, name, permissions } as any);
}

/** Seeds the `system` tenant's admin, and the `demo` tenant of docs/contract.md#directory-and-demo-tenant. Idempotent. */
export async function seed(
  em: EntityManager,
  opts: { adminPassword: string; demoPassword: string; demo: boolean },
): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(727275)');
    if (!(await tx.findOne(Tenant, { id: SYSTEM_TENANT })))
      tx.create(Tenant, { id: SYSTEM_TENANT, name: 'System' } as any);
    await tx.flush();
    await ensureRole(tx, SYSTEM_TENANT, 'admin', 'Administrator', ['*']);
    await tx.flush();
    await ensureUser(
      tx,
      SYSTEM_TENANT,
      { id: 'admin', displayName: 'System administrator', roles: ['admin'] },
      opts.adminPassword,
    );
    if (!opts.demo) return;
    if (!(await tx.findOne(Tenant, { id: 'demo' }))) tx.create(Tenant, { id: 'demo', name: 'Demo' } as any);
    await tx.flush();
    await ensureRole(tx, 'demo', 'admin', 'Administrator', ['*']);
    await ensureRole(tx, 'demo', 'employee', 'Employee', EMPLOYEE);
    await ensureRole(tx, 'demo', 'finance', 'Finance', []);
    await tx.flush();
    for (const d of DEMO_DEPARTMENTS) {
      if (!(await tx.findOne(Department, { tenantId: 'demo', id: d.id })))
        tx.create(Department, { tenantId: 'demo', parentId: null, ...d } as any);
    }
    await ensureUser(
      tx,
      'demo',
      { id: 'admin', displayName: 'Demo administrator', roles: ['admin'] },
      opts.adminPassword,
    );
    for (const u of DEMO_USERS) await ensureUser(tx, 'demo', u, opts.demoPassword);
  });
}
