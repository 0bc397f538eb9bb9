// SQL the migrations share. A migration that has run must go on emitting the same SQL, so a piece in use is never
// edited: a schema change gets a new piece (and a new migration).

/** The owning tenant: its rows go with it. */
export const ofTenant = 'tenant_id text not null references tenants(id) on delete cascade';
export const createdAt = 'created_at timestamptz not null default now()';
export const updatedAt = 'updated_at timestamptz not null default now()';

/** `create table`, one column or table constraint a line. */
export const createTable = (table: string, columns: readonly string[]) =>
  `create table ${table} (\n      ${columns.join(',\n      ')})`;

/**
 * A keyed, versioned document of a tenant (definitions, forms): drafts have no version, the others are numbered per
 * key. `content` is the document's own columns, `releasedAt` the column that stamps a version's release.
 */
export function versionedTable(
  table: string,
  { statuses, content, releasedAt }: { statuses: readonly string[]; content: readonly string[]; releasedAt: string },
) {
  return {
    create: createTable(table, [
      'id text primary key',
      ofTenant,
      'key text not null',
      'name text not null',
      'version integer',
      `status text not null check (status in (${statuses.map((s) => `'${s}'`).join(', ')}))`,
      'category text',
      'description text',
      ...content,
      'created_by text',
      'updated_by text',
      createdAt,
      updatedAt,
      `${releasedAt} timestamptz`,
      "check ((status = 'draft') = (version is null))",
    ]),
    versionUnique: `create unique index ${table}_version_uq on ${table} (tenant_id, key, version) where version is not null`,
    listIndex: `create index ${table}_list_idx on ${table} (tenant_id, created_at desc, id)`,
  };
}

/** Each trigger's event and the transition tables its function reads. */
const events = {
  ins: { event: 'insert', rows: 'new table as new_rows' },
  del: { event: 'delete', rows: 'old table as old_rows' },
  upd: { event: 'update', rows: 'old table as old_rows new table as new_rows' },
};
type Op = keyof typeof events;

/** A trigger function running `statements`; a statement-level trigger's return value is ignored. */
function triggerFunction(name: string, statements: string[]) {
  return `create function ${name}() returns trigger language plpgsql as $$
      begin
${statements.map((statement) => `        ${statement};\n`).join('')}        return null;
      end $$`;
}

/**
 * Statement-level triggers that keep something (a counter) in step with `table`: after each insert, delete and update
 * statement, the trigger `${name}_ins`, `_del` or `_upd` runs the plpgsql function of the same name, which reads the
 * statement's rows as `new_rows` / `old_rows` and runs `body`'s statements for that event.
 */
export function statementTriggers(name: string, table: string, body: Record<Op, string[]>) {
  const ops = Object.keys(events) as Op[];
  return {
    create: [
      ...ops.map((op) => triggerFunction(`${name}_${op}`, body[op])),
      ...ops.map(
        (op) =>
          `create trigger ${name}_${op} after ${events[op].event} on ${table} referencing ${events[op].rows} for each statement execute function ${name}_${op}()`,
      ),
    ],
    drop: [
      ...ops.map((op) => `drop trigger if exists ${name}_${op} on ${table}`),
      `drop function if exists ${ops.map((op) => `${name}_${op}()`).join(', ')}`,
    ],
  };
}
