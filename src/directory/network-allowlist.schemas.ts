import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';

export const ALLOWLIST_MAX_ENTRIES = 200;

const HOST_NAME = /(\*\.)?[A-Za-z0-9][A-Za-z0-9-]{0,62}(\.[A-Za-z0-9][A-Za-z0-9-]{0,62})*/;
const bare = (r: RegExp) => r.source.replace(/^\^/, '').replace(/\$$/, '');
/**
 * A host name (`erp.intranet.example`), a suffix (`*.intranet.example`), an address or a CIDR, as
 * one pattern: the document states exactly what the server takes (zod's address patterns).
 */
const ENTRY = new RegExp(
  `^(?:${[HOST_NAME, z.regexes.ipv4, z.regexes.ipv6, z.regexes.cidrv4, z.regexes.cidrv6].map(bare).join('|')})$`,
);

export const AllowlistEntry = z
  .object({
    entry: z
      .string()
      .max(253)
      .regex(ENTRY, { message: 'a host name (optionally *.suffix), an IPv4/IPv6 address or a CIDR' })
      .openapi({
        description:
          'A host name (exact, or `*.suffix` for its sub-domains), an IPv4/IPv6 address or a CIDR. Only private addresses are affected: loopback, link-local, metadata and other special addresses stay refused, and an entry that names one (or a CIDR starting at one, such as `0.0.0.0/0`) is 422 ALLOWLIST_REFUSED',
        example: '10.20.0.0/16',
      }),
    description: z.string().max(500).nullable().optional(),
  })
  .strict()
  .openapi('NetworkAllowlistEntryInput');

export const AllowlistBody = z
  .object({ entries: z.array(AllowlistEntry).max(ALLOWLIST_MAX_ENTRIES) })
  .strict()
  .openapi('NetworkAllowlistUpdate', { description: 'The whole list; an empty one removes every entry' });

export const Allowlist = z
  .object({
    entries: z.array(
      z.object({
        entry: z.string(),
        description: z.string().nullable(),
        createdBy: z.string().nullable(),
        createdAt: IsoDate,
      }),
    ),
  })
  .openapi('NetworkAllowlist');
