// The approver's toolbox beyond approve/reject: claim, return, transfer, delegate, add- and
// reduce-sign, withdraw, urge, suspend/activate, reassign, candidates, task variables and recall.
// Each validator refuses before anything is written; each handler records its trail entry,
// notifies the people concerned and answers once the instance is settled (docs/contract.md#action-rules).
import type { Engine } from './engine.js';
import { registerAdminTaskActions } from './admin-task-actions.js';
import { registerHandoverActions } from './handover-actions.js';
import { registerRecallActions } from './recall-actions.js';
import { registerSignerActions } from './signer-actions.js';
import { registerSuspensionActions } from './suspension-actions.js';
import { registerUserHandover } from './user-handover.js';

export function registerTaskActions(engine: Engine) {
  registerHandoverActions(engine);
  registerSignerActions(engine);
  registerSuspensionActions(engine);
  registerAdminTaskActions(engine);
  registerRecallActions(engine);
  registerUserHandover(engine);
}
