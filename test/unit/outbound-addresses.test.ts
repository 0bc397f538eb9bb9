// The outbound network rules' address classifier, every spelling at once, and the shared guard every
// outbound call goes through (httpCall, webhook functions, AI agents, chat channels: guardedRequest;
// e-mail channels: allowedAddresses) against a real listener on 127.0.0.1 that must receive nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedAddresses, guardedRequest, RequestRefused } from '../../src/infra/outbound/guard.js';
import { NetworkTrust } from '../../src/infra/outbound/network-trust.js';
import { loadConfig } from '../../src/config.js';
import { addressClass } from '../../src/infra/outbound/address-class.js';

/** Loopback, unspecified, link-local, metadata and other special addresses: never a tenant's to open. */
const FORBIDDEN = [
  // IPv4 loopback, unspecified, link-local / metadata, broadcast, multicast, reserved
  '127.0.0.1',
  '127.255.255.254',
  '0.0.0.0',
  '169.254.169.254',
  '100.100.100.200',
  '255.255.255.255',
  '224.0.0.1',
  '240.0.0.1',
  '192.0.0.170',
  // the same in other IPv4 spellings (ipaddr.js reads them as inet_aton does)
  '0x7f.1',
  '0x7f000001',
  '2130706433',
  '017700000001',
  '127.1',
  // IPv6 loopback and unspecified, full and compressed
  '::1',
  '0:0:0:0:0:0:0:1',
  '0000:0000:0000:0000:0000:0000:0000:0001',
  '::',
  '0:0:0:0:0:0:0:0',
  // IPv4-mapped: dotted and hex, compressed and full, upper case, bracketed
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::FFFF:7F00:0001',
  '0:0:0:0:0:ffff:7f00:1',
  '0:0:0:0:0:ffff:127.0.0.1',
  '[::ffff:7f00:1]',
  '[::1]',
  '::ffff:a9fe:a9fe',
  '::ffff:169.254.169.254',
  '::ffff:0.0.0.0',
  // IPv4-compatible, SIIT, NAT64, 6to4, Teredo carrying loopback or metadata
  '::127.0.0.1',
  '::7f00:1',
  '::ffff:0:7f00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::7f00:1',
  '2002:7f00:1::1',
  '2002:a9fe:a9fe::',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  // link-local with zone ids, site-local, multicast, documentation, metadata (AWS IPv6, with a zone)
  'fe80::1',
  'fe80::1%eth0',
  'fe80::1%1',
  'FEBF::1',
  'fec0::1',
  'ff02::1',
  '2001:db8::1',
  'fd00:ec2::254',
  'fd00:ec2:0:0:0:0:0:254%eth0',
  // not an address at all: fail closed
  'not-an-address',
  '',
];

/** RFC 1918, shared address space and unique-local, in every spelling: a tenant may allow them. */
const PRIVATE = [
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '100.64.0.1',
  '012.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:a00:1',
  '0:0:0:0:0:ffff:c0a8:101',
  '::ffff:0:a00:1',
  '64:ff9b::a00:1',
  '2002:c0a8:101::1',
  'fd12:3456::1',
  'fc00::1',
];

const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];

describe('addressClass', () => {
  it.each(FORBIDDEN)('%s is forbidden', (ip) => expect(addressClass(ip)).toBe('forbidden'));
  it.each(PRIVATE)('%s is private', (ip) => expect(addressClass(ip)).toBe('private'));
  it.each(PUBLIC)('%s is public', (ip) => expect(addressClass(ip)).toBe('public'));
});

describe('a tenant allowlist', () => {
  it('matches an address in any spelling against its CIDRs, and never opens a forbidden one', () => {
    const trust = new NetworkTrust(['10.0.0.0/8', 'fd12::/16']);
    expect(trust.allows('x', '::ffff:a00:1')).toBe(true);
    expect(trust.allows('x', '0:0:0:0:0:ffff:10.1.2.3')).toBe(true);
    expect(trust.allows('x', 'fd12:0:0:0:0:0:0:1')).toBe(true);
    expect(trust.allows('x', '11.0.0.1')).toBe(false);
  });
});

describe('the outbound guard against a listener on 127.0.0.1', () => {
  const config = loadConfig({ ...process.env, HTTP_CALL_ALLOW_PRIVATE: 'false', HTTP_CALL_ALLOW_PRIVATE_HOSTS: '' });
  const hits: string[] = [];
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // Every URL spelling of loopback and metadata that the WHATWG URL parser takes.
  const urls = () => [
    `http://127.0.0.1:${port}/a`,
    `http://127.1:${port}/b`,
    `http://0x7f.1:${port}/c`,
    `http://2130706433:${port}/d`,
    `http://017700000001:${port}/e`,
    `http://[::ffff:127.0.0.1]:${port}/f`,
    `http://[::ffff:7f00:1]:${port}/g`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${port}/h`,
    `http://[::FFFF:7F00:1]:${port}/i`,
    `http://[::1]:${port}/j`,
    `http://[0:0:0:0:0:0:0:1]:${port}/k`,
    `http://[::127.0.0.1]:${port}/l`,
    `http://[64:ff9b::7f00:1]:${port}/m`,
    `http://[::ffff:a9fe:a9fe]:${port}/n`,
    `http://169.254.169.254:${port}/o`,
    `http://localhost:${port}/p`,
    `http://metadata.google.internal:${port}/q`,
  ];

  it('refuses every spelling before anything is sent (httpCall, webhook functions, AI agents, chat)', async () => {
    for (const url of urls()) {
      const err = await guardedRequest(config, {
        url,
        method: 'GET',
        headers: {},
        timeoutMs: 2_000,
        allowedHosts: null,
      }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(RequestRefused);
    }
    // A tenant allowlist that names everything private opens none of them either.
    const trust = new NetworkTrust(['10.0.0.0/8', '127.0.0.0/8', '0.0.0.0/0', '::/0', 'localhost']);
    for (const url of urls().filter((u) => !u.includes('localhost'))) {
      const err = await guardedRequest(
        config,
        { url, method: 'GET', headers: {}, timeoutMs: 2_000, allowedHosts: null },
        trust,
      ).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(RequestRefused);
    }
    expect(hits).toEqual([]);
  });

  it('refuses every spelling of an SMTP host (e-mail channels dial the address it returns)', async () => {
    for (const host of FORBIDDEN.filter((h) => h !== '' && h !== 'not-an-address'))
      await expect(allowedAddresses(config, host), host).rejects.toBeInstanceOf(RequestRefused);
    await expect(allowedAddresses(config, 'localhost')).rejects.toBeInstanceOf(RequestRefused);
  });

  it('still reaches the listener where the operator allows loopback by name', async () => {
    const allowing = { ...config, HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost' };
    const res = await guardedRequest(allowing, {
      url: `http://localhost:${port}/allowed`,
      method: 'GET',
      headers: {},
      timeoutMs: 2_000,
      allowedHosts: null,
    });
    expect(res.text).toBe('reached');
    expect(hits).toEqual(['/allowed']);
    hits.length = 0;
  });
});
