// The tenant's private-address allowlist (docs/http.md "Private addresses"): replaced as a whole
// by a tenant admin, read by the activities at call time (src/infra/outbound/network-trust.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { addressClass } from '../infra/outbound/address-class.js';

export interface AllowlistEntryInput {
  entry: string;
  description?: string | null;
}

interface Row {
  entry: string;
  description: string | null;
  created_by: string | null;
  created_at: Date;
}

const view = (r: Row) => ({
  entry: r.entry,
  description: r.description ?? null,
  createdBy: r.created_by ?? null,
  createdAt: new Date(r.created_at).toISOString(),
});
export type AllowlistView = { entries: Array<ReturnType<typeof view>> };

export async function getAllowlist(em: EntityManager, tenantId: string): Promise<AllowlistView> {
  const rows = await em.execute<Row[]>(
    'select entry, description, created_by, created_at from network_allowlist where tenant_id = ? order by entry',
    [tenantId],
  );
  return { entries: rows.map(view) };
}

/**
 * An address or CIDR whose (first) address is loopback, link-local, metadata, unspecified or another
 * special range: never reachable through the list, so saying it is refused (422) rather than kept
 * inert. `0.0.0.0/0` and `::/0` start at the unspecified address and are refused with them. Host
 * names are checked when they are dialled.
 */
function checkEntries(entries: AllowlistEntryInput[]) {
  const fields = entries.flatMap((e, i) => {
    const address = e.entry.trim().split('/')[0];
    if (!/^[\d.]+$|:/.test(address) || addressClass(address) !== 'forbidden') return [];
    return [
      {
        path: `entries.${i}.entry`,
        message: `${e.entry} is a loopback, link-local, metadata or other special address: only the operator can open it`,
      },
    ];
  });
  if (fields.length) throw new AppError('ALLOWLIST_REFUSED', fields[0].message, { fields });
}

/** Replaces the list in one transaction; entries already there keep who added them and when. */
export async function replaceAllowlist(
  em: EntityManager,
  tenantId: string,
  userId: string,
  entries: AllowlistEntryInput[],
): Promise<AllowlistView> {
  checkEntries(entries);
  // One row per entry: written in lower case, so `Intranet.Example` and `intranet.example` are one.
  const byEntry = new Map(entries.map((e) => [e.entry.trim().toLowerCase(), e.description ?? null]));
  await em.transactional(async (tx) => {
    const present = await tx.execute<Array<{ entry: string }>>(
      'select entry from network_allowlist where tenant_id = ? for update',
      [tenantId],
    );
    for (const { entry } of present)
      if (!byEntry.has(entry))
        await tx.execute('delete from network_allowlist where tenant_id = ? and entry = ?', [tenantId, entry]);
    for (const [entry, description] of byEntry)
      await tx.execute(
        `insert into network_allowlist (tenant_id, entry, description, created_by) values (?, ?, ?, ?)
         on conflict (tenant_id, entry) do update set description = excluded.description`,
        [tenantId, entry, description, userId],
      );
  });
  return getAllowlist(em, tenantId);
}
