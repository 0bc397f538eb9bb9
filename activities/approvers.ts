// The resolveApprovers local activity: approver resolution against the directory (src/directory/approvers.ts).
import type { ActivityDeps } from './deps.js';
import { pgDirectory, resolveApprovers, type ApproverInput } from '../src/directory/approvers.js';

export function createApproverActivities(deps: ActivityDeps) {
  return {
    resolveApprovers: (input: ApproverInput) =>
      resolveApprovers(pgDirectory(deps.orm.em.fork(), input.tenantId), input),
  };
}
