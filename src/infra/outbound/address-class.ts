// The one classifier of the addresses the service connects to (docs/http.md "Outbound network
// rules"), on ipaddr.js: every spelling of an address is parsed to its bytes first, so a loopback
// written as `::ffff:7f00:1`, `0:0:0:0:0:ffff:127.0.0.1` or `::127.0.0.1` is loopback. An IPv6 address
// that carries an IPv4 one (mapped, compatible, SIIT, NAT64, 6to4, Teredo) is as bad as the worst
// IPv4 address it carries. Anything that does not parse is forbidden: fail closed.
import ipaddr from 'ipaddr.js';

export type AddressClass = 'public' | 'private' | 'forbidden';

/** Metadata services inside ranges otherwise counted as private or public (AWS IPv6, Alibaba Cloud). */
const METADATA = [ipaddr.parse('fd00:ec2::254'), ipaddr.parse('100.100.100.200')];

/** IPv4 ranges a tenant may open with its allowlist; every other special range is forbidden. */
const PRIVATE_V4 = new Set(['private', 'carrierGradeNat']);
/** IPv6 ranges a tenant may open; every other special range (loopback, link-local, site-local, documentation…) is forbidden. */
const PRIVATE_V6 = new Set(['uniqueLocal']);

/** The IPv4 addresses an IPv6 address carries, or null when it carries none. */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = a.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (a.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return [v4(p[6], p[7])];
    case 'rfc6052': // 64:ff9b::a.b.c.d (NAT64); the local-use 64:ff9b:1::/48 puts it elsewhere: refused whole
      return p.slice(2, 6).some((x) => x !== 0) ? [new ipaddr.IPv4([0, 0, 0, 0])] : [v4(p[6], p[7])];
    case '6to4': // 2002:AABB:CCDD::/48
      return [v4(p[1], p[2])];
    case 'teredo': // 2001:0:SERVER:..:~CLIENT
      return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  }
  // ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks); :: and ::1 stay IPv6.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) return [v4(p[6], p[7])];
  return null;
}

const RANK: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 };
const worst = (classes: AddressClass[]): AddressClass =>
  classes.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'public' as AddressClass);

function classOf(a: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  // match() compares the bytes only, so a zone id (`fd00:ec2::254%eth0`) does not hide the address.
  if (METADATA.some((m) => m.kind() === a.kind() && a.match(m, m.kind() === 'ipv4' ? 32 : 128))) return 'forbidden';
  if (a.kind() === 'ipv4') {
    const range = a.range();
    return range === 'unicast' ? 'public' : PRIVATE_V4.has(range) ? 'private' : 'forbidden';
  }
  const embedded = embeddedIPv4(a as ipaddr.IPv6);
  if (embedded) return worst(embedded.map(classOf));
  const range = a.range();
  return range === 'unicast' ? 'public' : PRIVATE_V6.has(range) ? 'private' : 'forbidden';
}

/** Parses any spelling ipaddr.js knows (zone ids and brackets included), or null. */
export function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = ip.trim().replace(/^\[(.*)\]$/, '$1');
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/** Whether an address is public, private (a tenant may allow it) or forbidden (only the operator may). */
export function addressClass(ip: string): AddressClass {
  const a = parseAddress(ip);
  return a ? classOf(a) : 'forbidden';
}

/** The forms an address may be matched in: itself, and the IPv4 address it carries, if any. */
export function addressForms(ip: string): Array<{ address: string; family: 'ipv4' | 'ipv6' }> {
  const a = parseAddress(ip);
  if (!a) return [];
  if (a.kind() === 'ipv4') return [{ address: a.toString(), family: 'ipv4' }];
  const v6 = a as ipaddr.IPv6;
  // Without its zone id: an allowlist entry names the address, not the interface.
  const forms: Array<{ address: string; family: 'ipv4' | 'ipv6' }> = [
    { address: new ipaddr.IPv6(v6.parts).toNormalizedString(), family: 'ipv6' },
  ];
  for (const v4 of embeddedIPv4(v6) ?? []) forms.push({ address: v4.toString(), family: 'ipv4' });
  return forms;
}
