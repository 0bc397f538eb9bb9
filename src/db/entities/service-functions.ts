import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from './columns.js';

export const ServiceFunctionKinds = ['activity', 'webhook'] as const;
export type ServiceFunctionKind = (typeof ServiceFunctionKinds)[number];

export interface RetryPolicy {
  maximumAttempts: number;
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number | null;
}

/** One entry of a tenant's service-function catalogue (docs/service-functions.md). */
export const ServiceFunction = defineEntity({
  name: 'ServiceFunction',
  tableName: 'service_functions',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    name: p.string(),
    kind: p.string().$type<ServiceFunctionKind>(),
    taskQueue: p.string().nullable(),
    activityType: p.string().nullable(),
    url: p.string().nullable(),
    /** The webhook's signing key: never answered by the API. */
    secret: p.string().nullable().lazy(),
    timeoutMs: p.integer(),
    retry: p.json<RetryPolicy>(),
    description: p.string().nullable(),
    inputSchema: p.json<Record<string, unknown>>().nullable(),
    outputSchema: p.json<Record<string, unknown>>().nullable(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
  },
});

export type IServiceFunction = InferEntity<typeof ServiceFunction>;
