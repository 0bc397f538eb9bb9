// Removes what no request keeps (docs/attachments.md#life-cycle): uploads never attached within
// ATTACHMENT_ORPHAN_HOURS, files of deleted instances, and rows marked `deleting`. Rows are marked
// in one statement and their objects deleted after, so a crash in between only delays the removal;
// several servers share the work (`skip locked`).
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import { attachmentStore } from './attachments.js';

const BATCH = 100;

/** One pass; answers how many objects it removed. */
export async function sweepAttachments(orm: Orm, config: Config): Promise<number> {
  const em = orm.em.fork();
  await em.execute(
    `update attachments set deleting = true
     where not deleting and source = 'upload' and created_at < now() - make_interval(secs => ?)`,
    [config.ATTACHMENT_ORPHAN_HOURS * 3600],
  );
  // Attached to an instance that is gone (deleted without the mark, or a start that never committed).
  await em.execute(
    `update attachments a set deleting = true
     where not a.deleting and a.instance_id is not null and a.attached_at < now() - interval '1 hour'
       and not exists (select 1 from instances i where i.id = a.instance_id)
       and not exists (select 1 from instances_archive i where i.id = a.instance_id)`,
  );
  const store = attachmentStore(config);
  let removed = 0;
  for (;;) {
    const done = await em.transactional(async (tx) => {
      const rows = await tx.execute<Array<{ id: string; storage_key: string }>>(
        'select id, storage_key from attachments where deleting and store = ? limit ? for update skip locked',
        [store.kind, BATCH],
      );
      for (const r of rows) await store.delete(r.storage_key);
      if (rows.length)
        await tx.execute('delete from attachments where id = any(?::text[])', [`{${rows.map((r) => r.id).join(',')}}`]);
      return rows.length;
    });
    removed += done;
    if (done < BATCH) return removed;
  }
}

export function startAttachmentSweeper(orm: Orm, config: Config, logger: Logger) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweepAttachments(orm, config)
      .then((n) => n && logger.info({ removed: n }, 'attachment sweep'))
      .catch((err: unknown) => logger.warn({ err }, 'attachment sweep failed; tried again next interval'));
  }, config.ATTACHMENT_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
