import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import { ActionResult } from './tasks.schemas.js';

const LinkAction = z.enum(['approve', 'reject']);

export const LinkParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  linkId: z.string().openapi({ param: { name: 'linkId', in: 'path' } }),
});

/** A compact JWS: three base64url parts. */
export const TOKEN_PATTERN = '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$';

export const TokenParam = z.object({
  token: z
    .string()
    .max(1000)
    .regex(new RegExp(TOKEN_PATTERN), 'a signed link token')
    .openapi({
      param: { name: 'token', in: 'path' },
      description:
        'The signed link token (a compact JWS, at most 1000 characters). One that does not verify answers 401 LINK_INVALID',
    }),
});

/** The mint body; `maxTtlSeconds` is APPROVAL_LINK_TTL_SECONDS (the default and the maximum). */
export const mintLinkBody = (maxTtlSeconds: number) =>
  z
    .object({
      userId: z.string().min(1).max(100).optional().openapi({ description: 'The assignee (the default)' }),
      actions: z.array(LinkAction).min(1).max(2).optional().openapi({ description: 'Default both' }),
      via: z
        .string()
        .min(1)
        .max(40)
        .regex(/^[a-z0-9_-]+$/, 'lower-case letters, digits, _ and - only')
        .optional()
        .openapi({ description: 'Where the link is sent (email, chat, …): recorded in the trail; default email' }),
      ttlSeconds: z
        .number()
        .int()
        .positive()
        .max(maxTtlSeconds)
        .optional()
        .openapi({
          description: `Seconds the link stays usable: at most APPROVAL_LINK_TTL_SECONDS (${maxTtlSeconds}), the default; more is refused (400), not shortened`,
        }),
    })
    .strict()
    .openapi('MintApprovalLinkRequest');

export const Link = z
  .object({
    linkId: z.string(),
    taskId: z.string(),
    instanceId: z.string(),
    userId: z.string(),
    actions: z.array(LinkAction),
    via: z.string(),
    createdBy: z.string(),
    createdAt: IsoDate,
    expiresAt: IsoDate,
    usedAt: IsoDate.nullable(),
    usedAction: z.string().nullable(),
    revokedAt: IsoDate.nullable(),
    closedAt: IsoDate.nullable(),
  })
  .openapi('ApprovalLink');

export const MintedLink = Link.extend({
  token: z.string(),
  path: z.string().openapi({ description: 'GET shows the task, POST decides it; no login' }),
}).openapi('MintedApprovalLink');

export const LinkView = z
  .object({
    linkId: z.string(),
    userId: z.string(),
    actions: z.array(LinkAction),
    expiresAt: IsoDate,
    task: z.object({
      id: z.string(),
      name: z.string(),
      activityId: z.string(),
      status: z.string(),
      createTime: IsoDate,
      dueDate: IsoDate.nullable(),
    }),
    instance: z.object({
      id: z.string(),
      processKey: z.string(),
      processName: z.string(),
      businessKey: z.string().nullable(),
      initiatorId: z.string(),
      startTime: IsoDate,
    }),
    variables: z.record(z.string(), z.unknown()),
  })
  .openapi('ApprovalLinkView');

export const DecideBody = z
  .object({ action: LinkAction, comment: z.string().max(4000).optional() })
  .strict()
  .openapi('ApprovalLinkDecision');

export const DecideResult = ActionResult.extend({ linkId: z.string(), action: LinkAction }).openapi(
  'ApprovalLinkDecisionResult',
);
