import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileProcess, parseProcess, type ProcessDocument, type UserTaskConfig } from '../../../dsl/index.js';

const exampleDir = new URL('../../../examples/', import.meta.url);
const example = (name: string): unknown => JSON.parse(readFileSync(new URL(`${name}.json`, exampleDir), 'utf8'));

/** A start → userTask → end document around one userTask configuration. */
function withUserTask(configuration: unknown, additionalInfo?: unknown): Record<string, unknown> {
  return {
    ruleChain: { id: 'p', name: 'P' },
    metadata: {
      nodes: [
        { id: 'start', type: 'startTask' },
        { id: 'prev', type: 'userTask', configuration: { approver: { type: 'manager' } } },
        { id: 'task', type: 'userTask', configuration, ...(additionalInfo ? { additionalInfo } : {}) },
        { id: 'end', type: 'end' },
      ],
      connections: [
        { fromId: 'start', toId: 'prev', type: 'Success' },
        { fromId: 'prev', toId: 'task', type: 'Success' },
        { fromId: 'task', toId: 'end', type: 'Success' },
      ],
    },
  };
}

/** A problem without parameters: where, its code and its words. */
const shaped = (nodeId: string | null, field: string, code: string, message: unknown) => ({
  nodeId,
  field,
  code,
  params: {},
  message,
});

function taskConfig(doc: ProcessDocument | null): UserTaskConfig {
  return doc!.metadata.nodes.find((n) => n.id === 'task')!.configuration as UserTaskConfig;
}

describe('examples', () => {
  it.each(['leave-request', 'expense-claim', 'purchase-legacy-keys'])(
    '%s parses and validates with no problems',
    (name) => {
      const parsed = parseProcess(example(name));
      expect(parsed.problems).toEqual([]);
      const compiled = compileProcess(example(name));
      expect(compiled.ok ? [] : compiled.problems).toEqual([]);
    },
  );

  it('normalises the legacy example to canonical keys', () => {
    const { doc } = parseProcess(example('purchase-legacy-keys'));
    const byId = (id: string) => doc!.metadata.nodes.find((n) => n.id === id)!.configuration;
    expect(byId('lead')).toEqual({
      approver: { type: 'manager', levels: 1 },
      approveMode: 'single',
      selfApproval: 'none',
      emptyApproverPolicy: 'tenant_admin',
      kind: 'approval',
      reject: { strategy: 'toStarter' },
    });
    expect(byId('board')).toEqual({
      approver: { type: 'user', userIds: ['carol', 'dave', 'frank'] },
      approveMode: 'vote',
      voteRule: { type: 'majority' },
      timeout: { dueInMinutes: 60, action: 'remind' },
      selfApproval: 'none',
      emptyApproverPolicy: 'tenant_admin',
      kind: 'approval',
      reject: { strategy: 'terminate' },
    });
  });
});

describe('document shape', () => {
  it('defaults firstNodeIndex to 0 and drops unknown node keys such as debugMode', () => {
    const input = withUserTask({ approver: { type: 'manager' } });
    const meta = input.metadata as { nodes: Record<string, unknown>[] };
    meta.nodes[0].debugMode = false;
    const { doc, problems } = parseProcess(input);
    expect(problems).toEqual([]);
    expect(doc!.metadata.firstNodeIndex).toBe(0);
    expect(doc!.metadata.nodes[0]).toEqual({ id: 'start', type: 'startTask' });
  });

  it('takes a designer wrapper: form becomes the embedded form, flow is ignored', () => {
    const form = { fields: [{ name: 'days', type: 'number' }] };
    const { doc, problems } = parseProcess({
      ...withUserTask({ approver: { type: 'manager' } }),
      form,
      flow: { zoom: 1 },
    });
    expect(problems).toEqual([]);
    expect(doc!.ruleChain.additionalInfo).toEqual({ form, formType: 'design' });
  });

  it('refuses other unknown top-level keys but still returns the document', () => {
    const { doc, problems } = parseProcess({ ...withUserTask({ approver: { type: 'manager' } }), layout: {} });
    expect(doc).not.toBeNull();
    expect(problems).toEqual([
      {
        nodeId: null,
        field: 'layout',
        code: 'document.unknownKey',
        params: { key: 'layout' },
        message: 'unknown top-level key "layout"',
      },
    ]);
  });

  it('reports every shape problem at once and gives no document', () => {
    const { doc, problems } = parseProcess({
      ruleChain: { name: 3 },
      metadata: {
        firstNodeIndex: 'x',
        nodes: [{ id: 'a' }, 'oops', { type: 'end' }],
        connections: [{ fromId: 'a', type: 'Success' }],
      },
    });
    expect(doc).toBeNull();
    expect(problems).toEqual(
      expect.arrayContaining([
        shaped(null, 'ruleChain.id', 'document.keyRequired', expect.stringContaining('required')),
        shaped(null, 'ruleChain.name', 'value.requiredString', expect.stringContaining('required')),
        shaped(null, 'metadata.firstNodeIndex', 'value.notInteger', 'must be an integer'),
        shaped('a', 'type', 'value.requiredString', 'required non-empty string'),
        shaped(null, 'metadata.nodes[1]', 'node.notObject', 'a node must be an object'),
        shaped(null, 'metadata.nodes[2].id', 'value.requiredString', 'required non-empty string'),
        shaped(null, 'metadata.connections[0].toId', 'value.requiredString', 'required non-empty string'),
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it.each([null, [], 'text', 42])('refuses %j as a document', (input) => {
    expect(parseProcess(input)).toEqual({
      doc: null,
      problems: [shaped(null, '', 'document.notObject', 'the process definition must be a JSON object')],
    });
  });

  it('checks permissions maps', () => {
    const { problems } = parseProcess(
      withUserTask(
        { approver: { type: 'manager' } },
        { formPermissions: { days: 'x' }, actionPermissions: { transfer: 'no' } },
      ),
    );
    expect(problems).toEqual([
      shaped('task', 'additionalInfo.actionPermissions.transfer', 'value.notBoolean', 'must be true or false'),
      {
        nodeId: 'task',
        field: 'additionalInfo.formPermissions.days',
        code: 'value.notOneOf',
        params: { allowed: ['r', 'w', 'h'] },
        message: 'must be "r", "w" or "h"',
      },
    ]);
  });
});

describe('older GFlow userTask keys (docs/dsl.md#older-gflow-usertask-keys)', () => {
  const rows: [string, Record<string, unknown>, Partial<UserTaskConfig>][] = [
    [
      'candidateType user + userIds',
      { candidateType: 'user', candidateConfig: { userIds: ['u1', 'u2'] } },
      { approver: { type: 'user', userIds: ['u1', 'u2'] } },
    ],
    [
      'candidateType role + roleIds',
      { candidateType: 'role', candidateConfig: { roleIds: ['finance'] } },
      { approver: { type: 'role', roleIds: ['finance'] } },
    ],
    [
      'candidateType dept + departmentIds',
      { candidateType: 'dept', candidateConfig: { departmentIds: ['eng'] } },
      { approver: { type: 'dept', deptIds: ['eng'] } },
    ],
    [
      'direct_manager + levels',
      { candidateType: 'direct_manager', candidateConfig: { levels: 2 } },
      { approver: { type: 'manager', levels: 2 } },
    ],
    [
      'multi_level_manager + levels',
      { candidateType: 'multi_level_manager', candidateConfig: { levels: -1 } },
      { approver: { type: 'multiLevelManager', levels: -1 } },
    ],
    [
      'initiator_select + selected (variable name)',
      { candidateType: 'initiator_select', candidateConfig: { selected: 'approvers' } },
      { approver: { type: 'initiatorSelect', expression: '${msg.approvers}' } },
    ],
    [
      'initiator_select + selected (template)',
      { candidateType: 'initiator_select', candidateConfig: { selected: '${msg.pick}' } },
      { approver: { type: 'initiatorSelect', expression: '${msg.pick}' } },
    ],
    ['initiator_self', { candidateType: 'initiator_self' }, { approver: { type: 'initiatorSelf' } }],
    ['approvalType single', { approvalType: 'single' }, { approveMode: 'single' }],
    ['approvalType or', { approvalType: 'or' }, { approveMode: 'any' }],
    ['approvalType sequential', { approvalType: 'sequential' }, { approveMode: 'sequential' }],
    ['countersign + rule all', { approvalType: 'countersign', approvalRule: '{"type":"all"}' }, { approveMode: 'all' }],
    ['countersign without rule', { approvalType: 'countersign' }, { approveMode: 'all' }],
    [
      'countersign + majority',
      { approvalType: 'countersign', approvalRule: '{"type":"majority","value":0}' },
      { approveMode: 'vote', voteRule: { type: 'majority' } },
    ],
    [
      'countersign + percent',
      { approvalType: 'countersign', approvalRule: '{"type":"percent","value":60}' },
      { approveMode: 'vote', voteRule: { type: 'percent', value: 60 } },
    ],
    [
      'vote + count',
      { approvalType: 'vote', approvalRule: '{"type":"count","value":2}' },
      { approveMode: 'vote', voteRule: { type: 'count', value: 2 } },
    ],
    [
      'rule isSequential',
      { approvalType: 'countersign', approvalRule: '{"type":"all","isSequential":true}' },
      { approveMode: 'all', sequential: true },
    ],
    ['selfApprovalType allow', { selfApprovalType: 'allow' }, { selfApproval: 'none' }],
    ['selfApprovalType skip', { selfApprovalType: 'skip' }, { selfApproval: 'skip' }],
    ['selfApprovalType auto_approve', { selfApprovalType: 'auto_approve' }, { selfApproval: 'autoApprove' }],
    [
      'selfApprovalType delegate_to_manager',
      { selfApprovalType: 'delegate_to_manager' },
      { selfApproval: 'delegateToManager' },
    ],
    [
      'selfApprovalType delegate_to_department_manager',
      { selfApprovalType: 'delegate_to_department_manager' },
      { selfApproval: 'delegateToDeptManager' },
    ],
    [
      'timeoutPolicy',
      { timeoutPolicy: { dueInMinutes: 30, action: 'autoApprove' } },
      { timeout: { dueInMinutes: 30, action: 'autoApprove' } },
    ],
    ['dueDate (static)', { dueDate: '2030-01-31T17:00:00Z' }, { dueDate: '2030-01-31T17:00:00Z' }],
    ['rejectStrategy terminate', { rejectStrategy: 'terminate' }, { reject: { strategy: 'terminate' } }],
    ['rejectStrategy rejectToStarter', { rejectStrategy: 'rejectToStarter' }, { reject: { strategy: 'toStarter' } }],
    ['rejectStrategy rejectToPrev', { rejectStrategy: 'rejectToPrev' }, { reject: { strategy: 'toPrev' } }],
    [
      'rejectStrategy rejectToNode + rejectTargetNode',
      { rejectStrategy: 'rejectToNode', rejectTargetNode: 'prev' },
      { reject: { strategy: 'toNode', target: 'prev' } },
    ],
  ];

  it.each(rows)('%s', (_, legacy, expected) => {
    const base = 'candidateType' in legacy ? {} : { approver: { type: 'manager' } };
    const { doc, problems } = parseProcess(withUserTask({ ...base, ...legacy }));
    expect(problems).toEqual([]);
    expect(taskConfig(doc)).toMatchObject(expected);
    for (const key of Object.keys(legacy)) {
      if (key !== 'dueDate') expect(taskConfig(doc)).not.toHaveProperty(key);
    }
  });

  it('takes rejectStrategy and rejectTargetNode from actionPermissions and leaves only booleans there', () => {
    const { doc, problems } = parseProcess(
      withUserTask(
        { approver: { type: 'manager' } },
        { actionPermissions: { transfer: false, rejectStrategy: 'rejectToNode', rejectTargetNode: 'prev' } },
      ),
    );
    expect(problems).toEqual([]);
    const task = doc!.metadata.nodes.find((n) => n.id === 'task')!;
    expect(task.configuration).toMatchObject({ reject: { strategy: 'toNode', target: 'prev' } });
    expect(task.additionalInfo?.actionPermissions).toEqual({ transfer: false });
    expect(
      compileProcess(
        withUserTask({ approver: { type: 'manager' } }, { actionPermissions: { rejectTargetNode: 'prev' } }),
      ).ok,
    ).toBe(true);
  });

  it('fills canonical defaults', () => {
    const { doc } = parseProcess(withUserTask({ approver: { type: 'manager' }, timeout: { dueInMinutes: 5 } }));
    expect(taskConfig(doc)).toEqual({
      approver: { type: 'manager' },
      approveMode: 'single',
      selfApproval: 'none',
      emptyApproverPolicy: 'tenant_admin',
      timeout: { dueInMinutes: 5, action: 'remind' },
      reject: { strategy: 'terminate' },
      kind: 'approval',
    });
  });

  it('refuses older and canonical keys together', () => {
    const { problems } = parseProcess(withUserTask({ approver: { type: 'manager' }, candidateType: 'user' }));
    expect(problems).toEqual([
      {
        nodeId: 'task',
        field: 'configuration.candidateType',
        code: 'legacy.bothKeys',
        params: { key: 'approver', legacyKey: 'candidateType' },
        message: expect.stringContaining('both "approver" and the older "candidateType"'),
      },
    ]);
  });

  it('reports an approvalRule that is not JSON', () => {
    const { problems } = parseProcess(
      withUserTask({ approver: { type: 'manager' }, approvalType: 'vote', approvalRule: '{type:' }),
    );
    expect(problems).toEqual([shaped('task', 'configuration.approvalRule', 'value.notJson', 'is not valid JSON')]);
  });
});
