import { z } from '@hono/zod-openapi';
import { httpUrl, IsoDate } from '../shapes.js';

/** As GFlow names agents: letters, digits, `_ . -`. */
const AgentId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, { message: 'letters, digits, _ . - (not starting with . or -)' })
  .openapi({ example: 'expense-precheck' });

export const AgentIdParam = z.object({
  agentId: AgentId.openapi({ param: { name: 'agentId', in: 'path' } }),
});

const fields = {
  name: z.string().max(200).nullable().optional(),
  baseUrl: httpUrl('send the key as apiKey (the Authorization: Bearer header), which is never answered').openapi({
    description:
      'The OpenAI-compatible API root; the call goes to `<baseUrl>/chat/completions`. No `user:password@` (400: the key goes in `apiKey`); a secret query parameter is stored and answered as `***`, and the answered URL sent back keeps it (docs/http.md "Credentials in URLs")',
    example: 'http://ollama.intranet:11434/v1',
  }),
  model: z.string().min(1).max(200).openapi({ example: 'qwen2.5:7b' }),
  systemPrompt: z.string().max(20_000).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(120_000)
    .openapi({ description: 'Per attempt, when the node sets no timeoutSec' }),
  apiKey: z.string().min(1).max(2000).nullable().optional().openapi({
    description:
      'Sent as the bearer token. Write-only: never answered (`hasApiKey`); on PUT, absent keeps it and null removes it',
  }),
};

export const AgentBody = z
  .object({ agentId: AgentId, ...fields })
  .strict()
  .openapi('AiAgentCreate');
export const AgentUpdateBody = z.object(fields).strict().openapi('AiAgentUpdate');

export const AiAgent = z
  .object({
    id: z.string(),
    agentId: z.string(),
    name: z.string().nullable(),
    baseUrl: z.string().openapi({
      description: 'As stored, with the values of secret query parameters (and any `user:password@`) as `***`',
    }),
    model: z.string(),
    systemPrompt: z.string().nullable(),
    temperature: z.number().nullable(),
    timeoutMs: z.number().int(),
    hasApiKey: z.boolean().openapi({ description: 'The key itself is never answered' }),
    createdAt: IsoDate,
    updatedAt: IsoDate,
  })
  .openapi('AiAgent');
