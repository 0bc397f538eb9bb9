import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps, versionedColumns } from './columns.js';

export const FormStatuses = ['draft', 'published', 'retired'] as const;
export type FormStatus = (typeof FormStatuses)[number];

/** One version (or draft) of a stored form; `version` stays null while a draft. */
export const StoredForm = defineEntity({
  name: 'StoredForm',
  tableName: 'forms',
  properties: {
    ...versionedColumns<FormStatus>(),
    schema: p.json<Record<string, unknown>>(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
    publishedAt: p.datetime().nullable(),
  },
});

export type IStoredForm = InferEntity<typeof StoredForm>;
