// The projection activity: a workflow's settled state into the read model (src/read-model/writer.ts),
// then the approver look-ups of the userTasks that may come next (src/directory/approvers.ts).
import { Context } from '@temporalio/activity';
import type { ProjectionSnapshot, ResolvedApprovers } from '../workflows/engine/types.js';
import type { ActivityDeps } from './deps.js';
import { writeProjection } from '../src/read-model/writer.js';
import { pgDirectory, resolveEach, type ApproverInput } from '../src/directory/approvers.js';
import { recordProjectionLag } from '../src/observability/metrics.js';
import { deliverProcessEvents } from '../src/rule-chains/process-events.js';

export function createProjectionActivities(deps: ActivityDeps) {
  return {
    async project({
      snapshot,
      approversAhead,
    }: {
      tenantId: string;
      snapshot: ProjectionSnapshot;
      /** Approver look-ups of the userTasks that may start next (workflows/engine/approvers-ahead.ts). */
      approversAhead?: ApproverInput[];
    }): Promise<{ approversAhead?: Array<ResolvedApprovers | null> }> {
      await writeProjection(deps.orm, snapshot, { writer: 'worker' });
      // Recorded state → read model: from when the workflow task that recorded it scheduled this activity.
      recordProjectionLag((Date.now() - Context.current().info.scheduledTimestampMs) / 1000);
      // Its events to the chains that subscribe (src/rule-chains/process-events.ts; never throws).
      await deliverProcessEvents(
        {
          orm: deps.orm,
          temporal: () => Context.current().client,
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          logger: deps.logger,
        },
        snapshot,
      );
      if (!approversAhead?.length) return {};
      // After the commit, outside the write's lock.
      const dir = pgDirectory(deps.orm.em.fork(), snapshot.instance.tenantId);
      return { approversAhead: await resolveEach(dir, approversAhead) };
    },
  };
}
