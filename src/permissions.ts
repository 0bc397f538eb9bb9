/** Permission codes, as the spec writes them. A role holding `*` holds all. */
export const Permissions = {
  ALL: '*',
  OPERATE: 'approval:operate',
  CREATE: 'approval:create',
  INSTANCE_START: 'workflow:instance:start',
  DEFINITION_READ: 'workflow:definition:read',
  DEFINITION_WRITE: 'workflow:definition:write',
  INSTANCE_MANAGE: 'workflow:instance:manage',
  MONITOR: 'workflow:monitor',
  ADMIN: 'workflow:admin',
  DIRECTORY_MANAGE: 'system:directory:manage',
  FORM_MANAGE: 'workflow:form:manage',
} as const;

export type Permission = (typeof Permissions)[keyof typeof Permissions];

export function holds(permissions: Set<string>, ...anyOf: string[]): boolean {
  return permissions.has(Permissions.ALL) || anyOf.some((p) => permissions.has(p));
}

export const SYSTEM_TENANT = 'system';
