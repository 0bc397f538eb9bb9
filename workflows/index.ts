export { approvalProcess } from './approval.workflow.js';
export { chainRun } from './chain-run.workflow.js';
