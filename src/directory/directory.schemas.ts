import { z } from '@hono/zod-openapi';
import { EmailAddress, IsoDate } from '../shapes.js';
import { PageQuery } from '../paging.js';
import { jsonSchema } from '../http/input.js';
import { LOCALES } from '../locales.js';
import { MAX_QUERY_LENGTH } from './people-search.js';
import { MAX_USER_BATCH } from './directory.js';

const SEARCH_RULES = `Case-insensitive, at most ${MAX_QUERY_LENGTH} characters; ranked: a whole term, then the start of a term or word, then anywhere (three characters or more: shorter queries match starts only), then by name. Chinese names also by pinyin (张三: zhangsan, zhang san, zhang) and initials (zs).`;

const Id = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.@-]+$/, 'letters, digits, _ . @ - only');

/** A PATCH body: the fields of a create body besides its key, each optional, at least one sent. */
const patchOf = <F extends z.ZodRawShape>(fields: F, name: string) =>
  z
    .object(fields)
    .partial()
    .strict()
    .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
    .openapi(name, { minProperties: 1 });

export const User = z
  .object({
    id: z.string(),
    username: z.string(),
    displayName: z.string(),
    email: z.string().nullable().openapi({ description: 'Where the email channel sends (docs/channels.md)' }),
    locale: z.string().nullable().openapi({ description: 'The language of their e-mail and chat messages' }),
    deptId: z.string().nullable(),
    managerId: z.string().nullable(),
    roles: z.array(z.string()),
    active: z.boolean(),
    createdAt: IsoDate,
    updatedAt: IsoDate,
  })
  .openapi('User');

const userFields = {
  username: z.string().min(1).max(200),
  displayName: z.string().min(1).max(200).optional(),
  password: z.string().min(4).max(1000),
  email: EmailAddress.nullable().optional(),
  locale: z.enum(LOCALES).nullable().optional(),
  deptId: z.string().nullable().optional(),
  managerId: z.string().nullable().optional(),
  roles: z.array(z.string()).max(100).optional(),
  active: z.boolean().optional(),
};
export const UserCreate = z
  .object({ id: Id.optional(), ...userFields })
  .strict()
  .openapi('UserCreate');
export const UserPatch = patchOf(userFields, 'UserPatch');

export const UserBatchCreate = z
  .object({ users: z.array(UserCreate).min(1).max(MAX_USER_BATCH) })
  .strict()
  .openapi('UserBatchCreate');
export const UserBatchCreated = z
  .object({ ids: z.array(z.string()).openapi({ description: "The created users' ids, in the order sent" }) })
  .openapi('UserBatchCreated');

/** `q` of a directory list (docs/contract.md#searching-the-directory). */
const SearchQuery = z
  .string()
  .max(MAX_QUERY_LENGTH)
  .optional()
  .openapi({ param: { name: 'q', in: 'query' } });

export const UserQuery = PageQuery.extend({
  deptId: z.string().optional(),
  role: z.string().optional(),
  active: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'Only active (true) or inactive (false) users; both when left out' }),
  q: SearchQuery.openapi({
    description: 'Matches display name, username, e-mail and department name. ' + SEARCH_RULES,
  }),
});

export const Department = z
  .object({ id: z.string(), name: z.string(), parentId: z.string().nullable(), leaderId: z.string().nullable() })
  .openapi('Department');

const departmentFields = {
  name: z.string().min(1).max(200),
  parentId: z.string().nullable().optional(),
  leaderId: z.string().nullable().optional(),
};
export const DepartmentCreate = z
  .object({ id: Id.optional(), ...departmentFields })
  .strict()
  .openapi('DepartmentCreate');
export const DepartmentPatch = patchOf(departmentFields, 'DepartmentPatch');

export const DepartmentQuery = PageQuery.extend({
  parentId: z.string().optional(),
  q: SearchQuery.openapi({ description: 'Matches the name. ' + SEARCH_RULES }),
});

export const Role = z.object({ code: z.string(), name: z.string(), permissions: z.array(z.string()) }).openapi('Role');

const roleFields = {
  name: z.string().min(1).max(200).optional(),
  permissions: z.array(z.string().min(1)).max(200).optional(),
};
export const RoleCreate = z
  .object({ code: Id, ...roleFields })
  .strict()
  .openapi('RoleCreate');
export const RolePatch = patchOf(roleFields, 'RolePatch');

export const TenantCreate = z
  .object({
    id: Id,
    name: z.string().min(1).max(200),
    admin: z
      .object({
        username: z.string().min(1).max(200),
        password: z.string().min(4).max(1000),
        displayName: z.string().max(200).optional(),
      })
      .strict(),
  })
  .strict()
  .openapi('TenantCreate');

export const TenantCreated = z.object({ id: z.string(), name: z.string(), admin: User }).openapi('Tenant');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const CodeParam = z.object({ code: z.string().openapi({ param: { name: 'code', in: 'path' } }) });
export const RoleQuery = PageQuery.extend({
  q: SearchQuery.openapi({ description: 'Matches code and name. ' + SEARCH_RULES }),
});

export const HandoverScope = z
  .object({
    tasks: z
      .boolean()
      .optional()
      .openapi({ description: 'Open tasks assigned to, delegated to or delegated by the user (default true)' }),
    pools: z
      .boolean()
      .optional()
      .openapi({ description: 'Their place among the candidate users of open tasks (default true)' }),
    startedInstances: z.boolean().optional().openapi({
      description: 'The running instances they started: the receiver becomes the initiator (default false)',
    }),
  })
  .strict()
  .openapi(
    'HandoverScope',
    jsonSchema({
      description: 'At least one kind is handed over (the defaults count): all three false is refused',
      not: {
        required: ['tasks', 'pools'],
        properties: { tasks: { const: false }, pools: { const: false }, startedInstances: { const: false } },
      },
    }),
  );

export const HandoverBody = z
  .object({
    toUserId: z.string().min(1).max(100),
    reason: z.string().max(2000).optional(),
    scope: HandoverScope.optional(),
  })
  .strict()
  .openapi('HandoverRequest');

const Counts = z.object({
  tasks: z.number().int(),
  delegated: z.number().int(),
  poolMemberships: z.number().int(),
  instances: z.number().int(),
});

export const HandoverResult = z
  .object({
    fromUserId: z.string(),
    toUserId: z.string(),
    scope: z.object({ tasks: z.boolean(), pools: z.boolean(), startedInstances: z.boolean() }),
    counts: Counts,
    perInstance: z.array(
      z.object({
        instanceId: z.string(),
        tasks: z.number().int(),
        delegated: z.number().int(),
        poolMemberships: z.number().int(),
        initiator: z.boolean(),
      }),
    ),
    skipped: z.array(z.object({ instanceId: z.string(), taskId: z.string(), reason: z.string() })),
    failures: z.array(z.object({ instanceId: z.string(), code: z.number().int(), message: z.string() })),
  })
  .openapi('HandoverResult');
