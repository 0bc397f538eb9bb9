import { Migration } from '@mikro-orm/migrations';

// Every directory table belongs to a tenant and keeps when its rows were made and changed.
const ofTenant = 'tenant_id text not null references tenants(id) on delete cascade';
const stamps = 'created_at timestamptz not null default now(), updated_at timestamptz not null default now()';

export class Migration20261121000001Directory extends Migration {
  override name = 'Migration20261121000001Directory';

  override up(): void {
    this.addSql(`create table tenants (
      id text primary key,
      name text not null,
      created_at timestamptz not null default now())`);
    this.addSql(`create table roles (
      ${ofTenant},
      code text not null,
      name text not null,
      permissions jsonb not null default '[]',
      ${stamps},
      primary key (tenant_id, code))`);
    this.addSql(`create table departments (
      ${ofTenant},
      id text not null,
      name text not null,
      parent_id text,
      leader_id text,
      ${stamps},
      primary key (tenant_id, id))`);
    this.addSql(`create table users (
      ${ofTenant},
      id text not null,
      username text not null,
      display_name text not null,
      password_hash text not null,
      dept_id text,
      manager_id text,
      roles jsonb not null default '[]',
      active boolean not null default true,
      ${stamps},
      primary key (tenant_id, id),
      unique (tenant_id, username))`);
    this.addSql(`create index users_username_idx on users (username)`);
    this.addSql(`create table rate_limits (
      key text primary key,
      hits integer not null,
      reset_at timestamptz not null)`);
  }

  override down(): void {
    this.addSql(
      'drop table rate_limits; drop table users; drop table departments; drop table roles; drop table tenants;',
    );
  }
}
