import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  approvalNodeTypes,
  componentCatalogue,
  nodeConfigSchemas,
  nodeTypes,
  ruleChainNodeTypes,
  userTaskConfigSchema,
  type UserTaskConfig,
} from '../../../dsl/index.js';

describe('node configuration schemas', () => {
  it('cover every node type, split between the two scopes', () => {
    expect(Object.keys(nodeConfigSchemas).sort()).toEqual([...nodeTypes].sort());
    expect([...approvalNodeTypes, ...ruleChainNodeTypes].sort()).toEqual([...nodeTypes].sort());
  });

  it('describe the canonical userTask configuration', () => {
    expectTypeOf<z.output<typeof userTaskConfigSchema>>().toExtend<UserTaskConfig>();
    expect(userTaskConfigSchema.parse({ approver: { type: 'manager' } })).toEqual({
      approver: { type: 'manager' },
      approveMode: 'single',
      selfApproval: 'none',
      emptyApproverPolicy: 'tenant_admin',
      reject: { strategy: 'terminate' },
      kind: 'approval',
    });
  });
});

describe('componentCatalogue', () => {
  it('lists every process node type with JSON Schemas', () => {
    const bpm = componentCatalogue('bpm');
    expect(bpm.map((c) => c.type)).toEqual([...approvalNodeTypes, ...ruleChainNodeTypes]);
    for (const component of bpm) {
      expect(component.name).not.toBe('');
      expect(component.description).not.toBe('');
      expect(component.configSchema).toMatchObject({ type: 'object', additionalProperties: false });
    }
    const userTask = bpm.find((c) => c.type === 'userTask')!.configSchema as {
      properties: Record<string, { default?: unknown; enum?: unknown }>;
      required: string[];
    };
    expect(userTask.required).toEqual(['approver']);
    expect(userTask.properties.approveMode).toMatchObject({
      default: 'single',
      enum: ['single', 'any', 'all', 'sequential', 'vote'],
    });
  });

  it('lists the rule-chain node types', () => {
    const rulechain = componentCatalogue('rulechain');
    expect(rulechain.map((c) => c.type)).toEqual([...ruleChainNodeTypes]);
    const http = rulechain.find((c) => c.type === 'httpCall')!.configSchema as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(http.required).toEqual(['url']);
    expect(http.properties.timeoutMs).toMatchObject({ default: 10000 });
  });
});
