import { Department, Role, Tenant, User } from './directory.js';

export * from './directory.js';

export const entities = [Tenant, Role, Department, User];
