// E-mail over SMTP (nodemailer): an HTML and a text part, a stable Message-ID per delivery, and
// In-Reply-To / References naming the instance's thread, so mail clients group an instance's
// messages. The SMTP host follows the outbound network rules (no private addresses unless allowed),
// and the connection goes to the address that was checked.
import nodemailer from 'nodemailer';
import { allowedAddresses, RequestRefused } from '../../infra/outbound/guard.js';
import { PermanentFailure, TransientFailure, shorten } from './types.js';
import type { Adapter, AdapterDeps, ChannelConfig } from './types.js';

type Transport = ReturnType<typeof nodemailer.createTransport>;
const transports = new Map<string, { version: string; transport: Transport }>();

async function transportOf(deps: AdapterDeps, channel: ChannelConfig): Promise<Transport> {
  const cached = transports.get(channel.id);
  if (cached?.version === channel.version) return cached.transport;
  cached?.transport.close();
  const s = channel.settings;
  let address: string;
  try {
    [{ address }] = await allowedAddresses(deps.config, s.host);
  } catch (err) {
    if (err instanceof RequestRefused) throw new PermanentFailure(err.message);
    throw new TransientFailure(`SMTP host ${s.host}: ${(err as Error).message}`);
  }
  const timeout = deps.config.NOTIFY_SEND_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 3,
    host: address,
    port: s.port,
    secure: s.tls === 'tls',
    requireTLS: s.tls === 'starttls',
    ignoreTLS: s.tls === 'none',
    // The certificate is checked against the configured name, not the address connected to.
    tls: { servername: s.host },
    name: 'approval-service',
    auth: s.user ? { user: s.user, pass: channel.secrets.password ?? '' } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  transports.set(channel.id, { version: channel.version, transport });
  return transport;
}

/** Closes every pooled SMTP connection (dispatcher stop). */
export function closeMailTransports() {
  for (const { transport } of transports.values()) transport.close();
  transports.clear();
}

const smtpStatus = (err: any): number | null => (typeof err?.responseCode === 'number' ? err.responseCode : null);

export const sendEmail: Adapter = async (deps, channel, out) => {
  if (!out.to) throw new PermanentFailure('the recipient has no e-mail address');
  const transport = await transportOf(deps, channel);
  const s = channel.settings;
  try {
    const info = await transport.sendMail({
      from: s.from,
      ...(s.replyTo ? { replyTo: s.replyTo } : {}),
      to: out.to,
      subject: out.message.subject,
      text: out.message.text,
      html: out.message.html,
      messageId: out.messageId,
      ...(out.threadId ? { inReplyTo: out.threadId, references: [out.threadId] } : {}),
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    if (info.rejected.length)
      throw new PermanentFailure(`the server refused ${info.rejected.join(', ')}`, null, info.response ?? null);
    const status = Number(String(info.response ?? '').slice(0, 3)) || null;
    return { status, response: shorten(String(info.response ?? '')) };
  } catch (err) {
    if (err instanceof PermanentFailure) throw err;
    const status = smtpStatus(err);
    const response = shorten(String((err as any)?.response ?? (err as Error).message));
    // 5xx: the server refuses for good (unknown mailbox, authentication refused); 4xx and transport errors pass.
    if (status !== null && status >= 500) throw new PermanentFailure(`SMTP ${status}: ${response}`, status, response);
    throw new TransientFailure(`SMTP ${status ?? 'error'}: ${response}`, status, response);
  }
};
