// One dedicated PostgreSQL connection that LISTENs on a channel and comes back after a drop.
// Pooled connections cannot LISTEN (the pool hands them to others), hence `pg` directly.
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import type { Logger } from '../observability/logger.js';

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', fn: (msg: { channel: string; payload?: string }) => void): void;
  on(event: 'error', fn: (err: Error) => void): void;
  on(event: 'end', fn: () => void): void;
  removeAllListeners(): void;
}

export interface PgListenerOptions {
  databaseUrl: string;
  channel: string;
  logger: Logger;
  onPayload: (payload: string) => void;
  /** Called after every successful (re)connect; `reconnected` is false for the first one. */
  onListening?: (reconnected: boolean) => void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export class PgListener {
  private client: PgClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private everConnected = false;
  private stopped = false;

  constructor(private readonly opts: PgListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(opts.channel)) throw new Error(`invalid channel name ${opts.channel}`);
  }

  get listening(): boolean {
    return this.client !== null;
  }

  /** Connects once; a failure is logged and retried in the background. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }

  /** A cheap round trip; a silently dead connection is dropped and reconnected. */
  async check(timeoutMs = 5_000): Promise<void> {
    const client = this.client;
    if (!client) return;
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('select 1'),
        new Promise(
          (_, reject) =>
            (timeout = setTimeout(() => reject(new Error('listen connection check timed out')), timeoutMs)),
        ),
      ]);
    } catch (err) {
      this.drop(client, err as Error);
    } finally {
      clearTimeout(timeout);
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client: PgClient = new pg.Client({
      connectionString: this.opts.databaseUrl,
      keepAlive: true,
      application_name: 'approvals-notifier',
    });
    client.on('error', (err) => this.drop(client, err));
    client.on('end', () => this.drop(client, new Error('connection ended')));
    client.on('notification', (msg) => {
      if (msg.channel === this.opts.channel && msg.payload) this.opts.onPayload(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${this.opts.channel}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      this.opts.logger.warn(
        { err: (err as Error).message, attempt: this.attempt },
        'notification listener could not connect',
      );
      this.schedule();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    const reconnected = this.everConnected;
    this.client = client;
    this.attempt = 0;
    this.everConnected = true;
    this.opts.logger.info({ channel: this.opts.channel, reconnected }, 'notification listener listening');
    this.opts.onListening?.(reconnected);
  }

  private drop(client: PgClient, err: Error) {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.opts.logger.warn({ err: err.message }, 'notification listener lost its connection; reconnecting');
    this.schedule();
  }

  private schedule() {
    if (this.stopped || this.timer) return;
    const min = this.opts.minBackoffMs ?? 250;
    const max = this.opts.maxBackoffMs ?? 15_000;
    const delay = Math.min(max, min * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt++;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
    this.timer.unref();
  }
}
