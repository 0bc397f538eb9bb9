// Open and overdue work per tenant, read when scraped from the maintained counters
// (open_task_counts, kept by triggers on `tasks`): a few rows per tenant and process, not a scan
// of the open tasks. Overdue = whole past due days from the counters + today's part from the
// `tasks_open_due` index, as the backlog endpoint counts it (src/instances/monitoring.ts).
import type { Orm } from '../db/orm.js';
import { BoundedLabel, registerCollectedGauge } from './metrics.js';

const OPEN_BY_TENANT = `
  select c.tenant_id, c.open, c.overdue_days + coalesce(d.n, 0) as overdue
    from (select tenant_id, sum(n) as open,
                 coalesce(sum(n) filter (where due_day < (now() at time zone 'UTC')::date), 0) as overdue_days
            from open_task_counts group by tenant_id) c
    left join (select tenant_id, count(*) as n from tasks
                where status in ('pending', 'active') and kind <> 'delay' and not deleted
                  and due_date >= (date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') and due_date < now()
                group by tenant_id) d on d.tenant_id = c.tenant_id`;

type Row = { tenant_id: string; open: string; overdue: string };

/** Sums per label value: tenants past the label cap add up under `other`. */
function sumBy(rows: Row[], tenants: BoundedLabel, col: 'open' | 'overdue') {
  const sums = new Map<string, number>();
  for (const r of rows) {
    const t = tenants.of(r.tenant_id);
    sums.set(t, (sums.get(t) ?? 0) + Number(r[col]));
  }
  return sums;
}

export function registerBacklogGauges(orm: Orm) {
  const tenants = new BoundedLabel(500);
  let last: Promise<Row[]> | null = null;
  // One query per scrape serves both gauges.
  const rows = () => {
    last ??= orm.em
      .fork()
      .execute<Row[]>(OPEN_BY_TENANT)
      .finally(() => setTimeout(() => (last = null), 1000));
    return last;
  };
  registerCollectedGauge({
    name: 'approval_open_tasks',
    help: 'Open tasks (pending or active, not delays) per tenant, from the maintained counters',
    labelNames: ['tenant'],
    collect: async (set) => {
      for (const [tenant, n] of sumBy(await rows(), tenants, 'open')) set({ tenant }, n);
    },
  });
  registerCollectedGauge({
    name: 'approval_failed_instances',
    help: 'Running instances in the failed status per tenant (waiting for a repair); `instances` holds running ones only',
    labelNames: ['tenant'],
    collect: async (set) => {
      const failed = await orm.em
        .fork()
        .execute<Array<{ tenant_id: string; n: string }>>(
          `select tenant_id, count(*) as n from instances where status = 'failed' group by tenant_id`,
        );
      const sums = new Map<string, number>();
      for (const r of failed) sums.set(tenants.of(r.tenant_id), (sums.get(tenants.of(r.tenant_id)) ?? 0) + Number(r.n));
      for (const [tenant, n] of sums) set({ tenant }, n);
    },
  });
  registerCollectedGauge({
    name: 'approval_overdue_tasks',
    help: 'Open tasks past their due date per tenant',
    labelNames: ['tenant'],
    collect: async (set) => {
      for (const [tenant, n] of sumBy(await rows(), tenants, 'overdue')) set({ tenant }, n);
    },
  });
}
