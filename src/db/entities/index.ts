import { Department, Role, Tenant, User } from './directory.js';
import { ProcessDefinition } from './definitions.js';
import { ServiceFunction } from './service-functions.js';
import { StoredForm } from './forms.js';
import { NotificationChannel } from './notification-channels.js';
import { AiAgent } from './ai-agents.js';
import { RuleChain, RuleChainRun, RuleChainVersion, Skill } from './rule-chains.js';

export * from './directory.js';
export * from './definitions.js';
export * from './service-functions.js';
export * from './forms.js';
export * from './notification-channels.js';
export * from './ai-agents.js';
export * from './rule-chains.js';

export const entities = [
  Tenant,
  Role,
  Department,
  User,
  ProcessDefinition,
  ServiceFunction,
  StoredForm,
  NotificationChannel,
  AiAgent,
  RuleChain,
  RuleChainVersion,
  RuleChainRun,
  Skill,
];
