// Search attributes operators filter on in the Temporal Web UI; kept current by the workflow.
// Every key here must be registered on the Temporal namespace (SEARCH_ATTRIBUTES in
// src/runtime/temporal-cli.ts for the dev server, docker-compose.yml's temporal-setup, and
// docs/operations-ui.md for other deployments): a start that carries an unknown key is refused.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ProcessKey = defineSearchAttributeKey('ProcessKey', SearchAttributeType.KEYWORD);
export const BusinessKey = defineSearchAttributeKey('BusinessKey', SearchAttributeType.KEYWORD);
export const InstanceStatus = defineSearchAttributeKey('InstanceStatus', SearchAttributeType.KEYWORD);
export const Initiator = defineSearchAttributeKey('Initiator', SearchAttributeType.KEYWORD);
export const TenantId = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
/** The deployed definition's version the instance runs (absent for a version-less definition). */
export const ProcessVersion = defineSearchAttributeKey('ProcessVersion', SearchAttributeType.INT);

export const workflowIdOf = (tenantId: string, instanceId: string) => `approval-${tenantId}-${instanceId}`;
