export { approvalProcess } from './approval.workflow.js';
