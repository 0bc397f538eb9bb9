// Search attributes operators filter on in the Temporal Web UI; kept current by the workflow.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ProcessKey = defineSearchAttributeKey('ProcessKey', SearchAttributeType.KEYWORD);
export const BusinessKey = defineSearchAttributeKey('BusinessKey', SearchAttributeType.KEYWORD);
export const InstanceStatus = defineSearchAttributeKey('InstanceStatus', SearchAttributeType.KEYWORD);
export const Initiator = defineSearchAttributeKey('Initiator', SearchAttributeType.KEYWORD);
export const TenantId = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);

export const workflowIdOf = (tenantId: string, instanceId: string) => `approval-${tenantId}-${instanceId}`;
