// A real SMTP server inside the test process (smtp-server), parsing every message it accepts with
// mailparser. Plain SMTP on 127.0.0.1 (no STARTTLS), any or no authentication.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  port: number;
  messages: ParsedMail[];
  /** Waits until `pick` finds messages (20 s at most by default). */
  waitFor(pick: (all: ParsedMail[]) => ParsedMail[], count?: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export interface MailboxOptions {
  /** Recipients answered `550 no such mailbox`. */
  refuse?: (address: string) => boolean;
  /** A pause before each message is accepted (widens the window a kill can land in). */
  delayMs?: number;
}

export async function startMailbox(opts: MailboxOptions = {}): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, done) {
      if (opts.refuse?.(address.address)) {
        const err = new Error('no such mailbox') as Error & { responseCode: number };
        err.responseCode = 550;
        return done(err);
      }
      done();
    },
    onData(stream, _session, done) {
      simpleParser(stream)
        .then(async (mail) => {
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
          messages.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as any).server.address() as AddressInfo).port;
  return {
    port,
    messages,
    async waitFor(pick, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pick(messages);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`expected ${count} message(s), got ${found.length} of ${messages.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The messages sent to `address`. */
export const to = (address: string) => (all: ParsedMail[]) =>
  all.filter((m) => [m.to].flat().some((a) => a?.value.some((v) => v.address === address)));
