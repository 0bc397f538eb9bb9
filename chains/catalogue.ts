// The nodes and endpoints a chain may hold (nodes-logic.ts, nodes-actions.ts and the endpoints
// below), each with RuleGo's configuration keys and defaults (rulego/rulego components/*, GFlow's
// startProcess), the relations it emits, and what its fields hold (an expression, a script, a
// `${...}` template) so validation and the forms agree. Pure data: no zod here.
import { ACTION_NODE_SPECS } from './nodes-actions.js';
import { LOGIC_NODE_SPECS } from './nodes-logic.js';
import { ignored, t, type ComponentSpec, type FieldSpec } from './spec.js';
import { RELATIONS } from './types.js';

export type { ComponentSpec, FieldKind, FieldSpec, FieldType, Locale, NodeCategory, Text } from './spec.js';
export { HTTP_METHODS, ROUTER_METHODS } from './spec.js';

export const NODE_SPECS: readonly ComponentSpec[] = [...LOGIC_NODE_SPECS, ...ACTION_NODE_SPECS];

const serverField: FieldSpec = ignored('server', 'string', ':9090', 'Server', '服务地址');
const httpFields: FieldSpec[] = [
  {
    ...serverField,
    desc: t(
      'Accepted for compatibility; routes are served by this service under /hooks.',
      '为兼容而接受；路由由本服务在 /hooks 下提供。',
    ),
  },
  ignored('allowCors', 'bool', false, 'Allow CORS', '允许跨域'),
];

export const ENDPOINT_SPECS: readonly ComponentSpec[] = [
  {
    type: 'endpoint/http',
    category: 'endpoint',
    label: t('HTTP trigger', 'HTTP 触发器'),
    desc: t(
      "Each router is a route of the service: /hooks/{tenantId}/{chainId}/{path}, method = params[0] (default POST), signed with the chain's hook secret or called with a JWT.",
      '每个路由是本服务的一条路由：/hooks/{tenantId}/{chainId}/{path}，方法 = params[0]（默认 POST），用规则链的钩子密钥签名或携带 JWT 调用。',
    ),
    relations: null,
    fields: httpFields,
  },
  {
    type: 'http',
    category: 'endpoint',
    label: t('HTTP trigger (older type)', 'HTTP 触发器（旧类型）'),
    desc: t("RuleGo's older name of endpoint/http; the same behaviour.", 'RuleGo 对 endpoint/http 的旧称；行为相同。'),
    relations: null,
    fields: httpFields,
  },
  {
    type: 'endpoint/schedule',
    category: 'endpoint',
    label: t('Schedule trigger', '定时触发器'),
    desc: t(
      'Each router\'s from.path is a cron (seconds first: "0 */5 * * * *") and becomes a Temporal Schedule while the chain is started.',
      '每个路由的 from.path 是 cron（秒在前："0 */5 * * * *"），规则链启动期间成为一个 Temporal Schedule。',
    ),
    relations: null,
    fields: [
      {
        name: 'timezone',
        type: 'string',
        defaultValue: '',
        label: t('Time zone', '时区'),
        desc: t(
          "IANA name (e.g. Asia/Shanghai); empty: the tenant's, else UTC.",
          'IANA 名称（如 Asia/Shanghai）；为空则用租户的，否则 UTC。',
        ),
      },
    ],
  },
  {
    type: 'endpoint/processEvent',
    category: 'endpoint',
    label: t('Approval event trigger', '审批事件触发器'),
    desc: t(
      'Runs the chain for each matching approval event: msg.type is the event, data {instanceId, processKey, businessKey, outcome?, taskId?, nodeId?, decision?}.',
      '每个匹配的审批事件运行一次规则链：msg.type 为事件名，数据 {instanceId, processKey, businessKey, outcome?, taskId?, nodeId?, decision?}。',
    ),
    relations: null,
    fields: [
      {
        name: 'processKey',
        type: 'string',
        defaultValue: '',
        label: t('Process key', '流程定义 Key'),
        desc: t('Only this process; empty: every process.', '仅此流程；为空则所有流程。'),
      },
      {
        name: 'events',
        type: 'array',
        kind: 'events',
        defaultValue: [],
        component: { type: 'select', multiple: true },
        label: t('Events', '事件'),
        desc: t(
          'instanceStarted, instanceEnded, taskCreated, taskDecided; empty: all.',
          'instanceStarted、instanceEnded、taskCreated、taskDecided；为空则全部。',
        ),
      },
    ],
  },
];

const nodesByType = new Map(NODE_SPECS.map((s) => [s.type, s]));
const endpointsByType = new Map(ENDPOINT_SPECS.map((s) => [s.type, s]));
export const nodeSpec = (type: string) => nodesByType.get(type);
export const endpointSpec = (type: string) => endpointsByType.get(type);
export const CHAIN_NODE_TYPES = NODE_SPECS.map((s) => s.type);
export const CHAIN_ENDPOINT_TYPES = ENDPOINT_SPECS.map((s) => s.type);
export const HTTP_ENDPOINT_TYPES = ['endpoint/http', 'http'] as const;
export const SCHEDULE_ENDPOINT_TYPE = 'endpoint/schedule';
export const PROCESS_EVENT_ENDPOINT_TYPE = 'endpoint/processEvent';
export const DEFAULT_RELATION = RELATIONS.DEFAULT;
