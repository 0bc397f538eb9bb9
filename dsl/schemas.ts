// Zod schemas of each node type's canonical configuration. Strict: unknown fields are refused.
import { z } from 'zod';
import type { NodeType } from './types.js';

const id = z.string().min(1);
const idList = z.array(id);

const empty = z.object({}).strict();

export const approverSchema = z
  .object({
    type: z.enum(['user', 'role', 'dept', 'manager', 'multiLevelManager', 'initiatorSelect', 'initiatorSelf']),
    userIds: idList.optional(),
    roleIds: idList.optional(),
    deptIds: idList.optional(),
    levels: z.number().int().optional(),
    expression: z.string().optional(),
  })
  .strict();

export const userTaskConfigSchema = z
  .object({
    approver: approverSchema,
    approveMode: z.enum(['single', 'any', 'all', 'sequential', 'vote']).default('single'),
    voteRule: z
      .object({ type: z.enum(['majority', 'percent', 'count']), value: z.number().optional() })
      .strict()
      .optional(),
    sequential: z.boolean().optional(),
    selfApproval: z.enum(['none', 'skip', 'autoApprove', 'delegateToManager', 'delegateToDeptManager']).default('none'),
    emptyApproverPolicy: z.enum(['tenant_admin', 'auto_approve', 'park']).default('tenant_admin'),
    timeout: z
      .object({
        dueInMinutes: z.number(),
        action: z.enum(['remind', 'autoApprove', 'autoReject']).default('remind'),
      })
      .strict()
      .optional(),
    dueDate: z.string().optional(),
    reject: z
      .object({
        strategy: z.enum(['terminate', 'toStarter', 'toPrev', 'toNode']).default('terminate'),
        target: z.string().nullable().optional(),
      })
      .strict()
      .default({ strategy: 'terminate' }),
    taskName: z.string().optional(),
    taskDescription: z.string().optional(),
    formKey: z.string().optional(),
    kind: z.enum(['approval', 'handle']).default('approval'),
  })
  .strict();

export const ccTaskConfigSchema = z
  .object({ ccUserIds: idList.optional(), selfSelect: z.boolean().optional() })
  .strict();

export const switchConfigSchema = z
  .object({ cases: z.array(z.object({ case: z.string(), then: z.string().min(1) }).strict()) })
  .strict();

export const joinConfigSchema = z.object({ timeout: z.number().int().min(0).optional() }).strict();

export const delayConfigSchema = z
  .object({
    delayMs: z.union([z.number().min(0, { error: 'must be a number ≥ 0' }), z.string().min(1)], {
      error: 'must be a number ≥ 0 or a template string',
    }),
  })
  .strict();

export const serviceTaskConfigSchema = z.object({ functionName: z.string(), param: z.string().optional() }).strict();

export const httpCallConfigSchema = z
  .object({
    url: z.string(),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.unknown().optional(),
    timeoutMs: z.number().int().positive().default(10_000),
    flattenOutput: z.boolean().default(true),
    outputMappings: z.array(z.object({ from: z.string().min(1), to: z.string().min(1) }).strict()).optional(),
    reservedKey: z.string().min(1).default('_http'),
    allowedHosts: z.array(z.string().min(1)).optional(),
  })
  .strict();

export const subProcessConfigSchema = z.object({ targetId: z.string() }).strict();

/** GFlow's aiAgent keys and defaults (docs/ai-review.md). */
export const aiAgentConfigSchema = z
  .object({
    agentId: z.string(),
    async: z.boolean().default(false),
    timeoutSec: z.number().int().min(1).max(3600).default(120),
    inputAssembly: z
      .object({
        customPrompt: z.string().max(20_000).optional(),
        contextSources: z
          .object({
            formData: z.boolean().default(true),
            processInfo: z.boolean().default(true),
            prevComments: z.boolean().default(true),
            initiator: z.boolean().default(true),
            attachments: z.boolean().default(false),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    decision: z
      .object({
        rejectStrategy: z.enum(['terminate', 'toStarter']).default('terminate'),
        unresolved: z.enum(['human', 'pass', 'reject']).default('human'),
      })
      .strict()
      .nullable()
      .optional(),
    failureHandler: z.array(z.string().min(1)).max(50).optional(),
    outputMappings: z.array(z.object({ from: z.string().min(1), to: z.string().min(1) }).strict()).optional(),
    flattenOutput: z.boolean().default(false),
    reservedKey: z.string().min(1).default('_ai'),
    skills: z.array(z.string().min(1)).max(20).optional(),
  })
  .strict();

/** GFlow's automation keys (targetId) with the waiting and output keys of httpCall. */
export const automationConfigSchema = z
  .object({
    targetId: z.string(),
    wait: z.boolean().default(true),
    timeoutMs: z.number().int().positive().optional(),
    flattenOutput: z.boolean().default(true),
    outputMappings: z.array(z.object({ from: z.string().min(1), to: z.string().min(1) }).strict()).optional(),
    reservedKey: z.string().min(1).default('_automation'),
  })
  .strict();

export const nodeConfigSchemas: Record<NodeType, z.ZodType> = {
  startTask: empty,
  userTask: userTaskConfigSchema,
  ccTask: ccTaskConfigSchema,
  switch: switchConfigSchema,
  inclusive: switchConfigSchema,
  fork: empty,
  join: joinConfigSchema,
  delay: delayConfigSchema,
  serviceTask: serviceTaskConfigSchema,
  httpCall: httpCallConfigSchema,
  subProcess: subProcessConfigSchema,
  aiAgent: aiAgentConfigSchema,
  automation: automationConfigSchema,
  end: empty,
};
