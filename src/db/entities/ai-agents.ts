import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from './columns.js';

/** One entry of a tenant's agents catalogue (docs/ai-review.md): an OpenAI-compatible endpoint. */
export const AiAgent = defineEntity({
  name: 'AiAgent',
  tableName: 'ai_agents',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    agentId: p.string(),
    name: p.string().nullable(),
    baseUrl: p.string(),
    model: p.string(),
    systemPrompt: p.text().nullable(),
    temperature: p.double().nullable(),
    timeoutMs: p.integer(),
    /** Sent as the bearer token: never answered by the API, never in workflow history. */
    apiKey: p.string().nullable().lazy(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
  },
});

export type IAiAgent = InferEntity<typeof AiAgent>;
