// How the read model's write statements carry values (writer.ts and its parts).

/** A value as JSON text (null for none), cast back by `?::jsonb`. */
export const j = (v: unknown) => JSON.stringify(v ?? null);

/** The instance and task upserts are skipped once the instance is archived (checked under the write's lock). */
export const LIVE = `not exists (select 1 from instances_archive where id = ?)`;

/** Rows as a jsonb array for jsonb_to_recordset; jsonb values travel as their JSON text and are cast back like a `?::jsonb` parameter. */
export const rows = (list: unknown[]) => JSON.stringify(list);
