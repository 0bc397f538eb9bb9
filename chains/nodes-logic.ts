// The catalogue's logic nodes: scripts, expressions and switches (RuleGo's filter and transform
// components). See spec.ts for the shape.
import { exprEditor, script, t, type ComponentSpec } from './spec.js';
import { RELATIONS } from './types.js';

const { SUCCESS, FAILURE, TRUE, FALSE } = RELATIONS;

export const LOGIC_NODE_SPECS: readonly ComponentSpec[] = [
  {
    type: 'jsFilter',
    category: 'filter',
    runs: 'activity',
    label: t('Script filter', '脚本过滤器'),
    desc: t(
      'A JavaScript Filter(msg, metadata, msgType, dataType) returns true (True) or false (False).',
      'JavaScript 函数 Filter(msg, metadata, msgType, dataType) 返回 true（True）或 false（False）。',
    ),
    relations: [TRUE, FALSE, FAILURE],
    fields: [script('return msg.temperature > 50;', 'function Filter(msg, metadata, msgType, dataType)')],
  },
  {
    type: 'jsTransform',
    category: 'transform',
    runs: 'activity',
    label: t('Script transform', '脚本转换器'),
    desc: t(
      'A JavaScript Transform(msg, metadata, msgType, dataType) returns {msg, metadata, msgType, dataType?}.',
      'JavaScript 函数 Transform(msg, metadata, msgType, dataType) 返回 {msg, metadata, msgType, dataType?}。',
    ),
    relations: [SUCCESS, FAILURE],
    fields: [
      script(
        "metadata['name']='test';\nreturn {'msg':msg,'metadata':metadata,'msgType':msgType};",
        'function Transform(msg, metadata, msgType, dataType)',
      ),
    ],
  },
  {
    type: 'jsSwitch',
    category: 'filter',
    runs: 'activity',
    label: t('Script switch', '脚本路由'),
    desc: t(
      'A JavaScript Switch(msg, metadata, msgType, dataType) returns the relation names to follow.',
      'JavaScript 函数 Switch(msg, metadata, msgType, dataType) 返回要走的关系名称数组。',
    ),
    relations: null,
    fields: [script("return ['msgType1','msgType2'];", 'function Switch(msg, metadata, msgType, dataType)')],
  },
  {
    type: 'log',
    category: 'action',
    runs: 'activity',
    label: t('Log', '记录日志'),
    desc: t(
      'A JavaScript ToString(msg, metadata, msgType, dataType) returns the text written to the run log.',
      'JavaScript 函数 ToString(msg, metadata, msgType, dataType) 返回写入运行日志的文本。',
    ),
    relations: [SUCCESS, FAILURE],
    fields: [
      {
        ...script(
          "return 'Incoming message:\\n' + JSON.stringify(msg) + '\\nIncoming metadata:\\n' + JSON.stringify(metadata);",
          'function ToString(msg, metadata, msgType, dataType)',
        ),
        required: false,
      },
    ],
  },
  {
    type: 'exprFilter',
    category: 'filter',
    runs: 'workflow',
    label: t('Expression filter', '表达式过滤器'),
    desc: t(
      'An expression (expr syntax) over msg, metadata, msgType, dataType: true → True, else False.',
      '基于 msg、metadata、msgType、dataType 的表达式（expr 语法）：true → True，否则 False。',
    ),
    relations: [TRUE, FALSE, FAILURE],
    fields: [
      {
        name: 'expr',
        type: 'string',
        kind: 'expr',
        required: true,
        defaultValue: '',
        component: exprEditor,
        label: t('Expression', '表达式'),
        desc: t(
          'e.g. msg.temperature > 50 && metadata.deviceType == "sensor"',
          '例如 msg.temperature > 50 && metadata.deviceType == "sensor"',
        ),
      },
    ],
  },
  {
    type: 'exprTransform',
    category: 'transform',
    runs: 'workflow',
    label: t('Expression transform', '表达式转换器'),
    desc: t(
      'One expression replaces the message data, or a mapping of fields to expressions builds a JSON object.',
      '单个表达式替换消息数据，或用字段到表达式的映射生成 JSON 对象。',
    ),
    relations: [SUCCESS, FAILURE],
    fields: [
      {
        name: 'expr',
        type: 'string',
        kind: 'expr',
        defaultValue: '',
        component: exprEditor,
        label: t('Expression', '表达式'),
        desc: t('Its value replaces msg data. Takes priority over mapping.', '其值替换消息数据；优先于映射。'),
      },
      {
        name: 'mapping',
        type: 'map',
        kind: 'exprMap',
        defaultValue: {},
        component: { type: 'map' },
        label: t('Mapping', '映射'),
        desc: t(
          'Field → expression, e.g. {"name": "upper(msg.name)"}. Used when expr is empty.',
          '字段 → 表达式，例如 {"name": "upper(msg.name)"}；expr 为空时使用。',
        ),
      },
    ],
  },
  {
    type: 'switch',
    category: 'flow',
    runs: 'workflow',
    label: t('Switch', '条件分支'),
    desc: t(
      'The first case whose expression is true takes its relation (then); none → Default.',
      '第一个表达式为真的分支走其关系（then）；都不满足 → Default。',
    ),
    relations: null,
    fields: [
      {
        name: 'cases',
        type: 'array',
        kind: 'cases',
        required: true,
        defaultValue: [{ case: 'msg.temperature>=20 && msg.temperature<=50', then: 'Case1' }],
        component: { type: 'cases' },
        label: t('Cases', '分支'),
        desc: t('[{case: expression, then: relation}], tried in order.', '[{case: 表达式, then: 关系}]，按顺序判断。'),
      },
    ],
  },
  {
    type: 'msgTypeSwitch',
    category: 'filter',
    runs: 'workflow',
    label: t('Message type switch', '消息类型路由'),
    desc: t(
      'Follows the connections named like the message type; none → Default.',
      '走与消息类型同名的连接；没有 → Default。',
    ),
    relations: null,
    fields: [],
  },
];
