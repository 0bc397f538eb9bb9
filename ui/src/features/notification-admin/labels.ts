// Names shown for channel types, message kinds and delivery states, from the catalogue.
import { t } from './i18n';
import type { ChannelType } from './api';

/** Product names, written the same in every language. */
const BRANDS: Partial<Record<ChannelType, string>> = { slack: 'Slack', teams: 'Microsoft Teams' };

export const typeName = (type: string): string => t.notifyAdmin.types[type] ?? BRANDS[type as ChannelType] ?? type;

export const kindName = (kind: string): string => t.notifyAdmin.kinds[kind] ?? kind;

export const fieldName = (field: string): string => t.notifyAdmin.fields[field] ?? field;
