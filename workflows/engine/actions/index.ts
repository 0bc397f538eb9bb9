// Registers every action's Update, one module per intent, in the order the run has always registered them.
// Each validator refuses before anything is written; each handler records its trail entry,
// notifies the people concerned and answers once the instance is settled
// (docs/contract.md#action-rules). The preconditions they share are in ../guards.ts. The order
// is the order of the handlers' registration, which an Update buffered before it (one sent
// right after continue-as-new) is dispatched by: keep it.
import type { Engine } from '../engine.js';
import { registerSync } from './settle.js';
import { registerDecisions } from './decision.js';
import { registerComplete } from './complete.js';
import { registerVariables } from './variables.js';
import { registerWithdraw, registerWithdrawTask } from './withdraw.js';
import { registerInstanceEndings } from './end-instance.js';
import { registerClaim } from './claim.js';
import { registerReturn } from './return.js';
import { registerTransferAndDelegate } from './transfer-delegate.js';
import { registerResolve } from './resolve.js';
import { registerAddSign } from './add-sign.js';
import { registerReduceSign } from './reduce-sign.js';
import { registerUrge } from './urge.js';
import { registerSuspension } from './suspension.js';
import { registerReassign } from './reassign.js';
import { registerCandidates } from './candidates.js';
import { registerTaskVariables } from './task-variables.js';
import { registerRecall } from './recall.js';
import { registerUserHandover } from './user-handover.js';
import { registerReDrive } from './re-drive.js';
import { registerForceResume } from './force-resume.js';

export function registerActions(engine: Engine) {
  // instance and decisions: sync, approve, reject, complete, setVariables, withdraw, terminate, completeInstance
  registerSync(engine);
  registerDecisions(engine);
  registerComplete(engine);
  registerVariables(engine);
  registerWithdraw(engine);
  registerInstanceEndings(engine);
  // the approver's toolbox: claim, unclaim, returnTask, transfer, delegate, resolve
  registerClaim(engine);
  registerReturn(engine);
  registerTransferAndDelegate(engine);
  registerResolve(engine);
  // addSign, reduceSign
  registerAddSign(engine);
  registerReduceSign(engine);
  // withdrawTask, urge, suspendTask, activateTask, suspendInstance, activateInstance
  registerWithdrawTask(engine);
  registerUrge(engine);
  registerSuspension(engine);
  // reassign, addCandidates, removeCandidates, setTaskVariables, deleteTaskVariables
  registerReassign(engine);
  registerCandidates(engine);
  registerTaskVariables(engine);
  // recall, handoverUser
  registerRecall(engine);
  registerUserHandover(engine);
  // admin repairs: reDrive, forceResume
  registerReDrive(engine);
  registerForceResume(engine);
}
