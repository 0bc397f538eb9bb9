import { Migration } from '@mikro-orm/migrations';

/**
 * Why a task went to whom (`assignmentReason`), kept with the task so lists need not read the
 * trail. Tasks assigned before keep the text their `assign` trail entry recorded.
 */
export class Migration20261124000100AssignmentReason extends Migration {
  override up(): void {
    for (const t of ['tasks', 'tasks_archive']) {
      this.addSql(`alter table ${t} add column assignment_reason jsonb`);
      this.addSql(
        `update ${t} x set assignment_reason = jsonb_build_object('kind', 'recorded', 'text', coalesce(e.detail->>'reason', 'assigned'),
           'ids', '[]'::jsonb, 'count', null, 'level', null, 'by', null, 'rule', e.detail->'fallback_from', 'seq', e.seq)
         from (select distinct on (task_id) task_id, detail, seq from trail where type = 'assign' and task_id is not null order by task_id, seq desc) e
         where e.task_id = x.id`,
      );
    }
  }

  override down(): void {
    for (const t of ['tasks', 'tasks_archive']) this.addSql(`alter table ${t} drop column assignment_reason`);
  }
}
