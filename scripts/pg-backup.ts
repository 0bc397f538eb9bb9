// `npm run backup -- <database-url> <file>` and `npm run restore -- <file> <database-url>`
// (docs/operations.md#backups): a logical backup of one PostgreSQL database — the service's
// (`approvals`) or Temporal's (`temporal`, `temporal_visibility`) — in plain SQL over the normal
// client protocol, so it works with any server version (pg_dump refuses a server newer than
// itself). The schema is not in the file: it is the owner's, made by the service's migrations
// (restore runs them on an empty service database) or by temporal-sql-tool (compose's
// `temporal-schema`) for Temporal's. The file is gzipped lines: a JSON header (tables, their
// columns, sequences), then one `<table index>\t<row as JSON>` line per row, then a JSON trailer
// with the row counts. Every row comes from one repeatable-read snapshot.
import { createReadStream, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';

const FORMAT = 'approvals-pg-backup/1';
const BATCH = 500;

interface PgClient {
  connect(): Promise<void>;
  query<R = any>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  end(): Promise<void>;
}
const { Client } = createRequire(import.meta.url)('pg') as { Client: new (o: object) => PgClient };

interface TableInfo {
  schema: string;
  name: string;
  columns: string[];
}
interface Header {
  format: string;
  database: string;
  serverVersion: string;
  takenAt: string;
  tables: TableInfo[];
  sequences: Array<{ name: string; lastValue: string | null; isCalled: boolean }>;
}
export interface BackupReport {
  database: string;
  tables: number;
  rows: Record<string, number>;
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
const qualified = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`;

async function tablesOf(db: PgClient): Promise<TableInfo[]> {
  // Ordinary tables outside the system schemas; generated columns are left out (the schema makes them).
  const { rows } = await db.query<{ schema: string; name: string; columns: string[] }>(
    `select n.nspname as schema, c.relname as name,
       array_agg(a.attname::text order by a.attnum) as columns
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
       and n.nspname not like 'pg_temp%'
     group by n.nspname, c.relname order by n.nspname, c.relname`,
  );
  return rows;
}

/** Writes the backup of the database at `url` to `file`. */
export async function backup(url: string, file: string): Promise<BackupReport> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('begin isolation level repeatable read read only');
    const [{ database, version }] = (
      await db.query<{ database: string; version: string }>(
        `select current_database() as database, current_setting('server_version') as version`,
      )
    ).rows;
    const tables = await tablesOf(db);
    const sequences = (
      await db.query<{ name: string; lastValue: string | null; isCalled: boolean }>(
        `select format('%I.%I', schemaname, sequencename) as name, last_value::text as "lastValue", last_value is not null as "isCalled"
         from pg_sequences where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
      )
    ).rows;
    const header: Header = {
      format: FORMAT,
      database,
      serverVersion: version,
      takenAt: new Date().toISOString(),
      tables,
      sequences,
    };
    const rows: Record<string, number> = {};
    async function* lines() {
      yield `${JSON.stringify(header)}\n`;
      for (const [i, t] of tables.entries()) {
        const name = `${t.schema}.${t.name}`;
        rows[name] = 0;
        // A cursor keeps memory flat on big tables; to_jsonb's text keeps 64-bit integers exact.
        await db.query(
          `declare backup_rows no scroll cursor for select to_jsonb(r)::text as j from (select ${t.columns.map(ident).join(', ')} from ${qualified(t)}) r`,
        );
        for (;;) {
          const batch = await db.query<{ j: string }>(`fetch ${BATCH} from backup_rows`);
          if (!batch.rows.length) break;
          rows[name] += batch.rows.length;
          yield batch.rows.map((r) => `${i}\t${r.j}\n`).join('');
        }
        await db.query('close backup_rows');
      }
      yield `${JSON.stringify({ end: true, rows })}\n`;
    }
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(file));
    await db.query('commit');
    return { database, tables: tables.length, rows };
  } finally {
    await db.end();
  }
}

/** Creates the database of `url` when it does not exist and `create` (else refuses); connects to the server's `postgres` database. */
async function ensureDatabase(url: string, create: boolean) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const db = new Client({ connectionString: admin.toString() });
  await db.connect();
  try {
    const exists = await db.query(`select 1 from pg_database where datname = $1`, [name]);
    if (!exists.rows.length && !create)
      throw new Error(
        `database ${name} does not exist: create it and its schema first (temporal-sql-tool create-database, setup-schema, update-schema)`,
      );
    if (!exists.rows.length) await db.query(`create database ${ident(name)}`);
  } finally {
    await db.end();
  }
}

/**
 * Loads the backup in `file` into the database at `url` (a service database is created when
 * missing; Temporal's must exist with its schema). Every table of
 * the backup must exist there with every backed-up column, except on an empty service database,
 * which gets the service's migrations first. The tables of the backup are emptied and loaded in
 * one transaction with triggers and foreign keys off (the rows, counters included, are the
 * snapshot's), then the sequences are set.
 */
export async function restore(file: string, url: string): Promise<BackupReport> {
  const input = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const it = input[Symbol.asyncIterator]();
  const first = await it.next();
  const header = JSON.parse(first.done ? '{}' : first.value) as Header;
  if (header.format !== FORMAT) throw new Error(`${file} is not a backup of this tool (format ${header.format})`);
  const isService = header.tables.some((t) => t.name === 'mikro_orm_migrations');
  await ensureDatabase(url, isService);
  const missing = async (db: PgClient) => {
    const present = new Map((await tablesOf(db)).map((t) => [`${t.schema}.${t.name}`, new Set(t.columns)]));
    return header.tables.flatMap((t) => {
      const cols = present.get(`${t.schema}.${t.name}`);
      if (!cols) return [`table ${t.schema}.${t.name}`];
      return t.columns.filter((c) => !cols.has(c)).map((c) => `column ${t.schema}.${t.name}.${c}`);
    });
  };
  let db = new Client({ connectionString: url });
  await db.connect();
  try {
    let absent = await missing(db);
    if (absent.length && isService && absent.length === header.tables.length) {
      // An empty service database: its schema is the migrations'.
      await db.end();
      const { createOrm, migrate } = await import('../src/db/orm.js');
      const orm = await createOrm(url); // the migrator needs more than one connection
      await migrate(orm);
      await orm.close();
      db = new Client({ connectionString: url });
      await db.connect();
      absent = await missing(db);
    }
    if (absent.length)
      throw new Error(
        `the target database lacks ${absent.slice(0, 5).join(', ')}${absent.length > 5 ? ` and ${absent.length - 5} more` : ''}: ` +
          `create its schema first (Temporal's: temporal-sql-tool setup-schema and update-schema, as compose's temporal-schema does; ` +
          `the service's: an empty database is migrated by this command)`,
      );
    await db.query('begin');
    await db.query(`set local session_replication_role = replica`);
    await db.query(`truncate ${header.tables.map(qualified).join(', ')}`);
    const rows: Record<string, number> = {};
    let pending: { table: number; json: string[] } = { table: -1, json: [] };
    const flush = async () => {
      if (!pending.json.length) return;
      const t = header.tables[pending.table];
      const cols = t.columns.map(ident).join(', ');
      await db.query(
        `insert into ${qualified(t)} (${cols}) overriding system value select ${cols} from jsonb_populate_recordset(null::${qualified(t)}, $1::jsonb)`,
        [`[${pending.json.join(',')}]`],
      );
      rows[`${t.schema}.${t.name}`] = (rows[`${t.schema}.${t.name}`] ?? 0) + pending.json.length;
      pending = { table: -1, json: [] };
    };
    let trailer: { end: true; rows: Record<string, number> } | undefined;
    for (let next = await it.next(); !next.done; next = await it.next()) {
      const line = next.value;
      const tab = line.indexOf('\t');
      if (tab < 0) {
        if (line.trim()) trailer = JSON.parse(line);
        continue;
      }
      const table = Number(line.slice(0, tab));
      if (table !== pending.table || pending.json.length >= BATCH) await flush();
      pending.table = table;
      pending.json.push(line.slice(tab + 1));
    }
    await flush();
    if (!trailer) throw new Error(`${file} is cut short (no trailer): not restored`);
    for (const [name, n] of Object.entries(trailer.rows))
      if ((rows[name] ?? 0) !== n) throw new Error(`${name}: ${rows[name] ?? 0} rows read, the backup says ${n}`);
    for (const s of header.sequences)
      if (s.lastValue !== null) await db.query(`select setval($1::regclass, $2::bigint, true)`, [s.name, s.lastValue]);
    await db.query('commit');
    return { database: header.database, tables: header.tables.length, rows };
  } catch (err) {
    await db.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await db.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...args] = process.argv.slice(2);
  const usage = 'usage: pg-backup backup <database-url> <file> | restore <file> <database-url>';
  if (args.length !== 2 || !['backup', 'restore'].includes(command)) {
    console.error(usage);
    process.exit(2);
  }
  try {
    const report = command === 'backup' ? await backup(args[0], args[1]) : await restore(args[0], args[1]);
    const total = Object.values(report.rows).reduce((a, n) => a + n, 0);
    console.log(JSON.stringify({ command, database: report.database, tables: report.tables, rows: total }));
    // Attachment bytes live in the attachment store, not in PostgreSQL (docs/attachments.md#backups).
    const files = Object.entries(report.rows).find(([name]) => name.replace(/^public\./, '') === 'attachments')?.[1];
    if (files)
      console.error(
        `${command}: ${files} attachment rows are metadata only — ${command === 'backup' ? 'copy' : 'restore'} the attachment store with it: ` +
          'the S3 bucket (S3_BUCKET; objects named by each row’s storage_key) or the disk folder (ATTACHMENT_DIR, default DATA_DIR/attachments). ' +
          'Take the database backup first, then the store: a row whose object is missing answers 503 for that file only.',
      );
  } catch (err) {
    console.error(`${command} failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
