// A tenant's private-address allowlist (docs/http.md "Private addresses"): the hosts and CIDRs its
// outbound calls (httpCall, webhook functions, AI agents) may reach although they are private
// (RFC 1918, unique-local IPv6, shared address space). Loopback, link-local, unspecified and cloud
// metadata addresses are never reachable through it: only the operator's HTTP_CALL_ALLOW_PRIVATE(_HOSTS).
import net from 'node:net';
import type { Orm } from '../src/db/orm.js';

export type AddressClass = 'public' | 'private' | 'forbidden';

/** Metadata services that sit in ranges otherwise counted as private (AWS IPv6, Alibaba Cloud). */
const METADATA = new Set(['fd00:ec2::254', '100.100.100.200']);

/** Whether an address is public, private (a tenant may allow it) or forbidden (only the operator may). */
export function addressClass(ip: string): AddressClass {
  const v6 = ip.toLowerCase();
  if (v6.startsWith('::ffff:') && net.isIPv4(v6.slice(7))) return addressClass(v6.slice(7));
  if (METADATA.has(v6)) return 'forbidden';
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    if (a === 127 || a === 0 || (a === 169 && b === 254) || a >= 224) return 'forbidden';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
      return 'private';
    return 'public';
  }
  if (v6 === '::1' || v6 === '::' || /^fe[89ab]/.test(v6) || v6.startsWith('ff')) return 'forbidden';
  if (/^f[cd]/.test(v6)) return 'private';
  return 'public';
}

/** The entries of one tenant's allowlist, ready to match: host names (exact or `*.suffix`) and CIDRs. */
export class NetworkTrust {
  private readonly names: string[] = [];
  private readonly blocks = new net.BlockList();

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      const [address, prefix] = entry.split('/');
      const family = net.isIP(address);
      if (!family) this.names.push(entry);
      else if (prefix === undefined) this.blocks.addAddress(address, family === 6 ? 'ipv6' : 'ipv4');
      else this.blocks.addSubnet(address, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Whether the host name, or the address it resolved to, is on the list. */
  allows(host: string, address: string): boolean {
    const name = host.toLowerCase();
    if (this.names.some((n) => n === name || (n.startsWith('*.') && name.endsWith(n.slice(1))))) return true;
    const family = net.isIP(address);
    return family !== 0 && this.blocks.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** The tenant's allowlist, read at call time (an admin's change applies to the next call). */
export async function tenantTrust(orm: Orm, tenantId: string): Promise<NetworkTrust> {
  const rows = await orm.em
    .fork()
    .execute<Array<{ entry: string }>>('select entry from network_allowlist where tenant_id = ?', [tenantId]);
  return new NetworkTrust(rows.map((r) => r.entry));
}
