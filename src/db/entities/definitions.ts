import { p, type InferEntity } from '@mikro-orm/core';
import { versionedEntity } from './columns.js';

export const DefinitionStatuses = ['draft', 'active', 'retired'] as const;

/** One version (or draft) of a process definition; a version is released when deployed. */
export const ProcessDefinition = versionedEntity('ProcessDefinition', 'process_definitions', {
  statuses: DefinitionStatuses,
  content: { dsl: p.json<Record<string, unknown>>(), form: p.json<unknown>().nullable() },
  releasedAt: 'deployedAt',
});

export type IProcessDefinition = InferEntity<typeof ProcessDefinition>;
