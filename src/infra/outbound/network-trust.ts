// A tenant's private-address allowlist (docs/http.md "Private addresses"): the hosts and CIDRs its
// outbound calls (httpCall, webhook functions, AI agents) may reach although they are private
// (RFC 1918, unique-local IPv6, shared address space). Loopback, link-local, unspecified and cloud
// metadata addresses are never reachable through it: only the operator's HTTP_CALL_ALLOW_PRIVATE(_HOSTS).
import net from 'node:net';
import type { Orm } from '../../db/orm.js';
import { addressForms } from './address-class.js';

export { addressClass, type AddressClass } from './address-class.js';

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
    // Every form of the address: `::ffff:a00:1` is matched against `10.0.0.0/8` as 10.0.0.1.
    return addressForms(address).some((f) => this.blocks.check(f.address, f.family));
  }
}

/** The tenant's allowlist, read at call time (an admin's change applies to the next call). */
export async function tenantTrust(orm: Orm, tenantId: string): Promise<NetworkTrust> {
  const rows = await orm.em
    .fork()
    .execute<Array<{ entry: string }>>('select entry from network_allowlist where tenant_id = ?', [tenantId]);
  return new NetworkTrust(rows.map((r) => r.entry));
}
