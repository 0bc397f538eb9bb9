import { Migration } from '@mikro-orm/migrations';
import { createTable, createdAt, ofTenant, updatedAt } from './ddl.js';

/**
 * A table of a tenant's directory (tenantEntity's): it belongs to a tenant, is keyed within it by `key`, and keeps
 * when its rows were made and changed.
 */
const directoryTable = (table: string, key: string, columns: string[], ...constraints: string[]) =>
  createTable(table, [
    ofTenant,
    ...columns,
    `${createdAt}, ${updatedAt}`,
    `primary key (tenant_id, ${key})`,
    ...constraints,
  ]);

export class Migration20261121000001Directory extends Migration {
  override up(): void {
    this.addSql(createTable('tenants', ['id text primary key', 'name text not null', createdAt]));
    this.addSql(
      directoryTable('roles', 'code', [
        'code text not null',
        'name text not null',
        "permissions jsonb not null default '[]'",
      ]),
    );
    this.addSql(
      directoryTable('departments', 'id', [
        'id text not null',
        'name text not null',
        'parent_id text',
        'leader_id text',
      ]),
    );
    this.addSql(
      directoryTable(
        'users',
        'id',
        [
          'id text not null',
          'username text not null',
          'display_name text not null',
          'password_hash text not null',
          'dept_id text',
          'manager_id text',
          "roles jsonb not null default '[]'",
          'active boolean not null default true',
        ],
        'unique (tenant_id, username)',
      ),
    );
    this.addSql(`create index users_username_idx on users (username)`);
    this.addSql(
      createTable('rate_limits', ['key text primary key', 'hits integer not null', 'reset_at timestamptz not null']),
    );
  }

  override down(): void {
    this.addSql(
      'drop table rate_limits; drop table users; drop table departments; drop table roles; drop table tenants;',
    );
  }
}
