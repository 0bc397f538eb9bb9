import { Migration } from '@mikro-orm/migrations';

/**
 * `approver_directory` runs in every decision's task look-up. PL/pgSQL keeps its statement's plan,
 * but PostgreSQL's own choice (custom plans while they look cheaper) planned its recursive query on
 * every call: pg_stat_statements (`npm run bench`, BENCH_PROFILE=1) showed 0.17 ms of planning
 * against 0.22 ms of execution. Its plan does not depend on the values (key look-ups by tenant and
 * id, the inputs read from a jsonb argument), so the function keeps one generic plan.
 */
export class Migration20261128000200DirectoryGenericPlan extends Migration {
  override up(): void {
    this.addSql(`alter function approver_directory(text, jsonb) set plan_cache_mode = force_generic_plan`);
  }

  override down(): void {
    this.addSql(`alter function approver_directory(text, jsonb) reset plan_cache_mode`);
  }
}
