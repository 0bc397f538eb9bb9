// Rule chains (docs/rule-chains.md): the tables of Migration20261129000100RuleChains, described.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ChainTrigger, NodeRunLog, RuleChainDsl, RuleMsg } from '../../../chains/types.js';
import { createdAt, timestamps } from './columns.js';

/** A chain's head: the deployed version's document and its state (`disabled` = stopped). */
export const RuleChain = defineEntity({
  name: 'RuleChain',
  tableName: 'rule_chains',
  properties: {
    tenantId: p.string().primary(),
    id: p.string().primary(),
    name: p.string(),
    root: p.boolean(),
    disabled: p.boolean(),
    category: p.string().nullable(),
    description: p.string().nullable(),
    version: p.integer(),
    dsl: p.json<RuleChainDsl>(),
    /** The HMAC key of the chain's HTTP triggers: answered only by GET /rules/{id}/hook-secret. */
    hookSecret: p.string().lazy(),
    message: p.string().nullable(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
  },
});
export type IRuleChain = InferEntity<typeof RuleChain>;

/** Every saved document of a chain, numbered from 1. */
export const RuleChainVersion = defineEntity({
  name: 'RuleChainVersion',
  tableName: 'rule_chain_versions',
  properties: {
    tenantId: p.string().primary(),
    chainId: p.string().primary(),
    version: p.integer().primary(),
    dsl: p.json<RuleChainDsl>(),
    createdBy: p.string().nullable(),
    createdAt: createdAt(),
  },
});
export type IRuleChainVersion = InferEntity<typeof RuleChainVersion>;

export type ChainRunStatus = 'running' | 'succeeded' | 'failed';

/** One run of a chain, written by the chain-run workflow (begun, then finished with the node log). */
export const RuleChainRun = defineEntity({
  name: 'RuleChainRun',
  tableName: 'rule_chain_runs',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    chainId: p.string(),
    chainVersion: p.integer(),
    chainName: p.string(),
    workflowId: p.string(),
    trigger: p.json<ChainTrigger>(),
    status: p.string().$type<ChainRunStatus>(),
    errorNode: p.string().nullable(),
    errorMsg: p.string().nullable(),
    inMsg: p.json<RuleMsg>(),
    outMsg: p.json<RuleMsg>().nullable(),
    logs: p.json<NodeRunLog[]>().nullable(),
    startedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
});
export type IRuleChainRun = InferEntity<typeof RuleChainRun>;

/** A named instruction text an aiAgent node may attach to its prompt (`skills: [name]`). */
export const Skill = defineEntity({
  name: 'Skill',
  tableName: 'skills',
  properties: {
    tenantId: p.string().primary(),
    name: p.string().primary(),
    description: p.string().nullable(),
    content: p.text(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
  },
});
export type ISkill = InferEntity<typeof Skill>;
