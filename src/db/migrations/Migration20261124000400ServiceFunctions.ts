import { Migration } from '@mikro-orm/migrations';
import { createdAt, ofTenant, updatedAt } from './ddl.js';

/**
 * The per-tenant catalogue of service functions (docs/service-functions.md): how a serviceTask's
 * `functionName` runs — a Temporal activity on a task queue of the tenant's choosing, or a signed
 * webhook. `secret` is the webhook's signing key: written by the API, read only by the webhook
 * activity, never answered.
 */
export class Migration20261124000400ServiceFunctions extends Migration {
  override up(): void {
    this.addSql(`create table service_functions (
      id text primary key,
      ${ofTenant},
      name text not null,
      kind text not null check (kind in ('activity', 'webhook')),
      task_queue text,
      activity_type text,
      url text,
      secret text,
      timeout_ms integer not null,
      retry jsonb not null,
      description text,
      input_schema jsonb,
      output_schema jsonb,
      created_by text,
      updated_by text,
      ${createdAt},
      ${updatedAt},
      check ((kind = 'activity') = (task_queue is not null and activity_type is not null)),
      check ((kind = 'webhook') = (url is not null and secret is not null)))`);
    this.addSql(`create unique index service_functions_name_uq on service_functions (tenant_id, name)`);
  }

  override down(): void {
    this.addSql('drop table service_functions;');
  }
}
