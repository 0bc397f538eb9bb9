import { Migration } from '@mikro-orm/migrations';
import { createdAt, createTable, ofTenant, updatedAt } from './ddl.js';

/**
 * Issue 26: the tenant's private-address allowlist (hosts and CIDRs its outbound calls may reach
 * although they are private), the agents catalogue (OpenAI-compatible chat-completions endpoints
 * an `aiAgent` node names; `api_key` is write-only) and the answers of agent calls, kept per
 * workflow, node and input so that running the node again with the same input does not call the
 * model again (docs/ai-review.md).
 */
export class Migration20261125000500AiAgents extends Migration {
  override up(): void {
    this.addSql(
      createTable('network_allowlist', [
        ofTenant,
        'entry text not null',
        'description text',
        'created_by text',
        createdAt,
        'primary key (tenant_id, entry)',
      ]),
    );
    this.addSql(
      createTable('ai_agents', [
        'id text primary key',
        ofTenant,
        'agent_id text not null',
        'name text',
        'base_url text not null',
        'model text not null',
        'system_prompt text',
        'temperature double precision',
        'timeout_ms integer not null',
        'api_key text',
        'created_by text',
        'updated_by text',
        createdAt,
        updatedAt,
      ]),
    );
    this.addSql('create unique index ai_agents_agent_id_uq on ai_agents (tenant_id, agent_id)');
    this.addSql(
      createTable('ai_agent_answers', [
        ofTenant,
        'workflow_id text not null',
        'node_id text not null',
        'fingerprint text not null',
        'content text not null',
        createdAt,
        'primary key (workflow_id, node_id, fingerprint)',
      ]),
    );
  }

  override down(): void {
    this.addSql('drop table ai_agent_answers; drop table ai_agents; drop table network_allowlist;');
  }
}
