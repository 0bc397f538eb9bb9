// A channel adapter sends one rendered Message in its platform's format and says what the remote
// server answered. It keeps no state: the dispatcher records each delivery's state.
import type { Config } from '../../config.js';
import type { ChannelKind } from '../../db/entities/index.js';
import type { Message } from '../messages/index.js';

export interface ChannelConfig {
  id: string;
  kind: ChannelKind;
  /** Changes whenever the channel is edited (a cached connection is dropped then). */
  version: string;
  settings: Record<string, any>;
  secrets: Record<string, string>;
}

export interface Outgoing {
  /** Stable for the delivery: a resend carries the same id, so receivers can drop the duplicate. */
  messageId: string;
  /** The instance's thread (e-mail In-Reply-To / References). */
  threadId: string | null;
  message: Message;
  /** The recipient's address on the channel: an e-mail address, a chat user id (mentioned), or null. */
  to: string | null;
  recipient: { id: string; name: string };
  /** The notification itself, for the generic webhook. */
  notification: { id: string; kind: string; instanceId: string | null; taskId: string | null; payload: unknown } | null;
}

export interface SendResult {
  /** The remote's status: an HTTP status or an SMTP reply code. */
  status: number | null;
  /** What the remote answered (shortened). */
  response: string;
}

/** A failure that another attempt will not cure (a refused address, a rejected recipient, bad settings). */
export class PermanentFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly response: string | null = null,
  ) {
    super(message);
  }
}

/** A failure worth another attempt (a timeout, a refused connection, a 5xx, a rate limit). */
export class TransientFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly response: string | null = null,
  ) {
    super(message);
  }
}

export interface AdapterDeps {
  config: Config;
}

export type Adapter = (deps: AdapterDeps, channel: ChannelConfig, out: Outgoing) => Promise<SendResult>;

export const shorten = (text: string, max = 1000) => (text.length > max ? `${text.slice(0, max)}…` : text);
