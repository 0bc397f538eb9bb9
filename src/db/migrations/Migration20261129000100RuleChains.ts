import { Migration } from '@mikro-orm/migrations';
import { createdAt, createTable, ofTenant, updatedAt } from './ddl.js';

/**
 * Issue 45: rule chains (docs/rule-chains.md). A chain's head row holds the deployed version's
 * document and its state (`disabled` = stopped); every save is a numbered version; every run has
 * one row, written by the chain-run workflow from its own record (begun, then finished with the
 * node log); skills are named instruction texts an aiAgent node may attach.
 */
export class Migration20261129000100RuleChains extends Migration {
  override up(): void {
    this.addSql(
      createTable('rule_chains', [
        ofTenant,
        'id text not null',
        'name text not null',
        'root boolean not null default true',
        'disabled boolean not null default false',
        'category text',
        'description text',
        'version integer not null',
        'dsl jsonb not null',
        // The HMAC key of the chain's HTTP triggers: never answered by the API after it is made.
        'hook_secret text not null',
        // Why the last start or stop failed (RuleGo's additionalInfo.message).
        'message text',
        'created_by text',
        'updated_by text',
        createdAt,
        updatedAt,
        'primary key (tenant_id, id)',
      ]),
    );
    this.addSql('create index rule_chains_list_idx on rule_chains (tenant_id, updated_at desc, id)');
    this.addSql(
      createTable('rule_chain_versions', [
        'tenant_id text not null',
        'chain_id text not null',
        'version integer not null',
        'dsl jsonb not null',
        'created_by text',
        createdAt,
        'primary key (tenant_id, chain_id, version)',
        'foreign key (tenant_id, chain_id) references rule_chains (tenant_id, id) on delete cascade',
      ]),
    );
    this.addSql(
      createTable('rule_chain_runs', [
        'id text primary key',
        ofTenant,
        'chain_id text not null',
        'chain_version integer not null',
        'chain_name text not null',
        'workflow_id text not null',
        'trigger jsonb not null',
        "status text not null check (status in ('running', 'succeeded', 'failed'))",
        'error_node text',
        'error_msg text',
        'in_msg jsonb not null',
        'out_msg jsonb',
        'logs jsonb',
        'started_at timestamptz not null',
        'ended_at timestamptz',
      ]),
    );
    this.addSql('create index rule_chain_runs_chain_idx on rule_chain_runs (tenant_id, chain_id, started_at desc, id)');
    this.addSql('create index rule_chain_runs_list_idx on rule_chain_runs (tenant_id, started_at desc, id)');
    this.addSql(
      createTable('skills', [
        ofTenant,
        'name text not null',
        'description text',
        'content text not null',
        'created_by text',
        'updated_by text',
        createdAt,
        updatedAt,
        'primary key (tenant_id, name)',
      ]),
    );
  }

  override down(): void {
    this.addSql(
      'drop table skills; drop table rule_chain_runs; drop table rule_chain_versions; drop table rule_chains;',
    );
  }
}
