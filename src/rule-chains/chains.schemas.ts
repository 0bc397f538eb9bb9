// Request and answer shapes of the bridged API (RuleGo-Server's, docs/rule-chains.md).
import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import { BoolFlag, RuleGoId, SizePageQuery } from './rulego-http.js';

const Json = z.record(z.string(), z.unknown());

export const IdParam = z.object({ id: RuleGoId.openapi({ param: { name: 'id', in: 'path' } }) });

const MsgType = z
  .string()
  .min(1)
  .max(200)
  .openapi({ param: { name: 'msgType', in: 'path' }, description: 'msg.type of the message' });
export const RunParams = IdParam.extend({ msgType: MsgType });

export const OperateParams = IdParam.extend({
  type: z.enum(['start', 'stop', 'set-to-main']).openapi({
    param: { name: 'type', in: 'path' },
    description: '`start` deploys (triggers live), `stop` undeploys; `set-to-main` is RuleGo’s and answers 400 here',
  }),
});

const Node = z
  .object({
    id: z.string().max(256),
    type: z.string().max(200),
    name: z.string().max(1000).optional(),
    debugMode: z.boolean().optional(),
    configuration: Json.optional(),
    additionalInfo: Json.optional(),
  })
  .catchall(z.unknown())
  .openapi('RuleNode');

const Endpoint = Node.extend({
  processors: z.array(z.string()).optional(),
  routers: z.array(Json).optional(),
})
  .catchall(z.unknown())
  .openapi('RuleEndpoint');

const Connection = z
  .object({
    fromId: z.string().max(256),
    toId: z.string().max(256),
    type: z.string().max(200),
    label: z.string().optional(),
  })
  .catchall(z.unknown())
  .openapi('RuleNodeConnection');

/** RuleGo's types.RuleChain: unknown fields are kept (the editor's layout, extensions). */
export const RuleChainDsl = z
  .object({
    ruleChain: z
      .object({
        id: z.string().max(256).optional().openapi({ description: 'The path’s id; filled from it when left out' }),
        name: z.string().min(1).max(1000),
        root: z.boolean().optional(),
        disabled: z.boolean().optional().openapi({
          description:
            'On a new chain: true saves it stopped. An existing chain keeps its state (operate/start|stop changes it); answers say the state here',
        }),
        debugMode: z.boolean().optional(),
        configuration: Json.optional(),
        additionalInfo: Json.optional().openapi({
          description: '`category` and `description` are listed and filtered on',
        }),
      })
      .catchall(z.unknown()),
    metadata: z
      .object({
        firstNodeIndex: z.number().int().optional(),
        endpoints: z.array(Endpoint).optional(),
        nodes: z.array(Node),
        connections: z.array(Connection).optional(),
        ruleChainConnections: z.array(z.unknown()).optional(),
      })
      .catchall(z.unknown()),
  })
  .catchall(z.unknown())
  .openapi('RuleChainDsl');

export const ChainSummary = z
  .object({
    ruleChain: z.object({
      id: z.string(),
      name: z.string(),
      root: z.boolean(),
      disabled: z.boolean(),
      additionalInfo: z.object({
        category: z.string(),
        updateTime: z.string().openapi({ example: '2026/08/14 10:00:00', description: 'UTC' }),
        description: z.string(),
        message: z.string().openapi({ description: 'Why the last start or deploy of its triggers failed, if it did' }),
      }),
    }),
    metadata: z.object({ endpoints: z.array(z.object({ type: z.string() })) }),
    version: z.number().int().openapi({ description: 'Ours: the deployed version' }),
  })
  .openapi('RuleChainSummary');

export const ChainListQuery = z.object({
  keywords: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'keywords', in: 'query' }, description: 'In id, name or description' }),
  category: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'category', in: 'query' } }),
  root: BoolFlag.openapi({ param: { name: 'root', in: 'query' } }),
  disabled: BoolFlag.openapi({ param: { name: 'disabled', in: 'query' } }),
  ...SizePageQuery,
});

export const sizePage = <T extends z.ZodType>(item: T) =>
  z.object({ total: z.number().int(), page: z.number().int(), size: z.number().int(), items: z.array(item) });

export const PageSizeQuery = z.object(SizePageQuery);

export const ChainVersion = z
  .object({
    version: z.number().int(),
    deployed: z.boolean(),
    name: z.string(),
    createdBy: z.string().nullable(),
    createdAt: IsoDate,
    dsl: RuleChainDsl,
  })
  .openapi('RuleChainVersion');

export const HookSecret = z.object({ chainId: z.string(), secret: z.string() }).openapi('RuleChainHookSecret', {
  description:
    'The HMAC-SHA256 key of the chain’s HTTP triggers: sign `${x-gflow-timestamp}.${raw body}` and send `x-gflow-signature: sha256=<hex>`',
});

const NodeId = z.string().max(256);
export const RunQuery = z.object({
  _msgId: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: '_msgId', in: 'query' }, description: 'The message’s id' }),
  _headersToMetadata: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: '_headersToMetadata', in: 'query' },
      description: 'true: the request headers go into msg.metadata (Authorization and Cookie never do)',
    }),
  _fromNodeId: NodeId.optional().openapi({
    param: { name: '_fromNodeId', in: 'query' },
    description: 'Start at this node',
  }),
  _onlyNodeId: NodeId.optional().openapi({
    param: { name: '_onlyNodeId', in: 'query' },
    description: 'Run only this node',
  }),
});

export const RunStarted = z.object({ runId: z.string() }).openapi('RuleChainRunStarted');

export const MessageData = z.unknown().openapi({
  description:
    'msg.data of the message: a JSON body makes a JSON message (dataType JSON); any other Content-Type is sent as TEXT',
});
