import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps, versionedColumns } from './columns.js';

export const DefinitionStatuses = ['draft', 'active', 'retired'] as const;
export type DefinitionStatus = (typeof DefinitionStatuses)[number];

/** One version (or draft) of a process definition; `version` stays null while a draft. */
export const ProcessDefinition = defineEntity({
  name: 'ProcessDefinition',
  tableName: 'process_definitions',
  properties: {
    ...versionedColumns<DefinitionStatus>(),
    dsl: p.json<Record<string, unknown>>(),
    form: p.json<unknown>().nullable(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
    deployedAt: p.datetime().nullable(),
  },
});

export type IProcessDefinition = InferEntity<typeof ProcessDefinition>;
