import { Migration20261121000001Directory } from './Migration20261121000001Directory.js';
import { Migration20261121000002Definitions } from './Migration20261121000002Definitions.js';
import { Migration20261121000003Runtime } from './Migration20261121000003Runtime.js';
import { Migration20261121000004FailedKeepsBusinessKey } from './Migration20261121000004FailedKeepsBusinessKey.js';
import { Migration20261123000010IdempotencyKeys } from './Migration20261123000010IdempotencyKeys.js';
import { Migration20261123000020ListIndexes } from './Migration20261123000020ListIndexes.js';
import { Migration20261124000100AssignmentReason } from './Migration20261124000100AssignmentReason.js';
import { Migration20261124000400ServiceFunctions } from './Migration20261124000400ServiceFunctions.js';
import { Migration20261124000500Forms } from './Migration20261124000500Forms.js';
import { Migration20261124000700ApprovalLinks } from './Migration20261124000700ApprovalLinks.js';
import { Migration20261124000800OpenTaskCounts } from './Migration20261124000800OpenTaskCounts.js';
import { Migration20261125000100NotificationChannels } from './Migration20261125000100NotificationChannels.js';
import { Migration20261125000200NotificationPreferences } from './Migration20261125000200NotificationPreferences.js';
import { Migration20261125000300Languages } from './Migration20261125000300Languages.js';
import { Migration20261125000400NotificationTemplates } from './Migration20261125000400NotificationTemplates.js';
import { Migration20261125000500AiAgents } from './Migration20261125000500AiAgents.js';
import { Migration20261125000600EndingCodes } from './Migration20261125000600EndingCodes.js';
import { Migration20261126000100ProjectionIntents } from './Migration20261126000100ProjectionIntents.js';
import { Migration20261126000200DeliveryWake } from './Migration20261126000200DeliveryWake.js';
import { Migration20261126000300ApproversAhead } from './Migration20261126000300ApproversAhead.js';
import { Migration20261128000100RedundantIndexes } from './Migration20261128000100RedundantIndexes.js';
import { Migration20261128000200DirectoryGenericPlan } from './Migration20261128000200DirectoryGenericPlan.js';
import { Migration20261129000100RuleChains } from './Migration20261129000100RuleChains.js';
import { Migration20261129000200PeopleSearch } from './Migration20261129000200PeopleSearch.js';
import { Migration20261129000300BusinessKeySearch } from './Migration20261129000300BusinessKeySearch.js';
import { Migration20261129000400Attachments } from './Migration20261129000400Attachments.js';
import { Migration20261129000600FirstState } from './Migration20261129000600FirstState.js';

/**
 * Every migration, in order. Listed explicitly so the same list runs from TypeScript and from dist/; the name given
 * here is the one the migrator records (the classes carry none of their own).
 */
export const migrationsList = [
  { name: 'Migration20261121000001Directory', class: Migration20261121000001Directory },
  { name: 'Migration20261121000002Definitions', class: Migration20261121000002Definitions },
  { name: 'Migration20261121000003Runtime', class: Migration20261121000003Runtime },
  { name: 'Migration20261121000004FailedKeepsBusinessKey', class: Migration20261121000004FailedKeepsBusinessKey },
  { name: 'Migration20261123000010IdempotencyKeys', class: Migration20261123000010IdempotencyKeys },
  { name: 'Migration20261123000020ListIndexes', class: Migration20261123000020ListIndexes },
  { name: 'Migration20261124000100AssignmentReason', class: Migration20261124000100AssignmentReason },
  { name: 'Migration20261124000400ServiceFunctions', class: Migration20261124000400ServiceFunctions },
  { name: 'Migration20261124000500Forms', class: Migration20261124000500Forms },
  { name: 'Migration20261124000700ApprovalLinks', class: Migration20261124000700ApprovalLinks },
  { name: 'Migration20261124000800OpenTaskCounts', class: Migration20261124000800OpenTaskCounts },
  { name: 'Migration20261125000100NotificationChannels', class: Migration20261125000100NotificationChannels },
  { name: 'Migration20261125000200NotificationPreferences', class: Migration20261125000200NotificationPreferences },
  { name: 'Migration20261125000300Languages', class: Migration20261125000300Languages },
  { name: 'Migration20261125000400NotificationTemplates', class: Migration20261125000400NotificationTemplates },
  { name: 'Migration20261125000500AiAgents', class: Migration20261125000500AiAgents },
  { name: 'Migration20261125000600EndingCodes', class: Migration20261125000600EndingCodes },
  { name: 'Migration20261126000100ProjectionIntents', class: Migration20261126000100ProjectionIntents },
  { name: 'Migration20261126000200DeliveryWake', class: Migration20261126000200DeliveryWake },
  { name: 'Migration20261126000300ApproversAhead', class: Migration20261126000300ApproversAhead },
  { name: 'Migration20261128000100RedundantIndexes', class: Migration20261128000100RedundantIndexes },
  { name: 'Migration20261128000200DirectoryGenericPlan', class: Migration20261128000200DirectoryGenericPlan },
  { name: 'Migration20261129000100RuleChains', class: Migration20261129000100RuleChains },
  { name: 'Migration20261129000200PeopleSearch', class: Migration20261129000200PeopleSearch },
  { name: 'Migration20261129000300BusinessKeySearch', class: Migration20261129000300BusinessKeySearch },
  { name: 'Migration20261129000400Attachments', class: Migration20261129000400Attachments },
  { name: 'Migration20261129000600FirstState', class: Migration20261129000600FirstState },
];
