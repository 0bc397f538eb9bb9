import type { ChannelKind } from '../../db/entities/index.js';
import { chatAdapters } from './chat.js';
import { sendEmail } from './email.js';
import type { Adapter } from './types.js';

/** The adapter of each channel kind. */
export const adapters: Record<ChannelKind, Adapter> = { email: sendEmail, ...chatAdapters };

export * from './types.js';
export { closeMailTransports } from './email.js';
