import { z } from '@hono/zod-openapi';
import { Task } from '../read-model/shapes.js';

export { OverdueQuery, ProcessKeyQuery as BacklogQuery } from '../read-model/shapes.js';

const n = z.number().int();

export const ProcessLoad = z
  .object({ processKey: z.string(), processName: z.string(), open: n, overdue: n })
  .openapi('ProcessLoad');

export const Statistics = z
  .object({
    todo: n.openapi({ description: 'my to-do: assigned active tasks and pools I may claim (the /todo total)' }),
    claimable: n.openapi({ description: 'the pool part of todo' }),
    overdue: n.openapi({ description: 'my to-do past its due date' }),
    ccUnread: n,
    applicationsRunning: n.openapi({
      description: 'instances I started that have not ended (active, suspended, failed)',
    }),
    doneToday: n.openapi({ description: 'tasks I closed since 00:00 UTC' }),
    byProcess: z
      .array(ProcessLoad)
      .optional()
      .openapi({ description: 'with workflow:monitor: open work of the tenant by process' }),
  })
  .openapi('TaskStatistics');

export const OverdueTask = Task.extend({ overdueSeconds: n }).openapi('OverdueTask');

export const BacklogRow = z
  .object({
    processKey: z.string(),
    processName: z.string(),
    open: n.openapi({ description: 'pending and active tasks' }),
    unclaimed: n.openapi({ description: 'pending: in a pool, nobody claimed it' }),
    overdue: n,
    oldestAgeSeconds: n.openapi({ description: 'age of the oldest open task' }),
  })
  .openapi('BacklogRow');
