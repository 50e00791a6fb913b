import { describe, it, expect } from 'vitest';
import { CITIES, cityNames, locationForIp } from '../../src/core/cities.js';

const KEY_ORDER = [
  'type',
  'city_name',
  'continent_code',
  'country_name',
  'latitude',
  'longitude',
  'postal_code',
  'region_name',
  'timezone',
  'country_code',
];
const CONTINENTS = ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'];

describe('CITIES table', () => {
  it('has at least 40 entries', () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(40);
  });

  it('covers every continent', () => {
    const seen = new Set(CITIES.map((c) => c.continent_code));
    expect([...seen].sort()).toEqual(CONTINENTS);
  });

  it('has unique city names', () => {
    const names = CITIES.map((c) => c.city_name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps country code and country name consistent', () => {
    const byCode = new Map<string, string>();
    for (const c of CITIES) {
      const prev = byCode.get(c.country_code);
      if (prev !== undefined) expect(c.country_name).toBe(prev);
      byCode.set(c.country_code, c.country_name);
    }
  });

  it('includes a country without postal codes as an empty string', () => {
    expect(CITIES.some((c) => c.postal_code === '')).toBe(true);
    expect(CITIES.find((c) => c.city_name === 'Hong Kong')?.postal_code).toBe('');
  });

  it('contains known real entries', () => {
    expect(CITIES.find((c) => c.city_name === 'Dublin')).toEqual({
      city_name: 'Dublin',
      continent_code: 'EU',
      country_name: 'Ireland',
      latitude: 53.3498,
      longitude: -6.2603,
      postal_code: 'D02 X285',
      region_name: 'Leinster',
      timezone: 'Europe/Dublin',
      country_code: 'IE',
    });
    const sydney = CITIES.find((c) => c.city_name === 'Sydney');
    expect(sydney?.country_code).toBe('AU');
    expect(sydney?.continent_code).toBe('OC');
    expect(sydney?.timezone).toBe('Australia/Sydney');
  });

  it('is frozen so callers cannot corrupt the shared table', () => {
    expect(Object.isFrozen(CITIES)).toBe(true);
    for (const c of CITIES) expect(Object.isFrozen(c)).toBe(true);
  });

  describe.each(CITIES.map((c) => [c.city_name, c] as const))('%s', (_name, c) => {
    it('is well-formed', () => {
      expect(Object.keys(c)).toEqual(KEY_ORDER.slice(1));
      expect(c.city_name.trim()).toBe(c.city_name);
      expect(c.city_name).not.toBe('');
      expect(c.region_name).not.toBe('');
      expect(c.country_name).not.toBe('');
      expect(CONTINENTS).toContain(c.continent_code);
      expect(c.country_code).toMatch(/^[A-Z]{2}$/);
      expect(Number.isFinite(c.latitude)).toBe(true);
      expect(Number.isFinite(c.longitude)).toBe(true);
      expect(c.latitude).toBeGreaterThanOrEqual(-90);
      expect(c.latitude).toBeLessThanOrEqual(90);
      expect(c.longitude).toBeGreaterThanOrEqual(-180);
      expect(c.longitude).toBeLessThanOrEqual(180);
      // At most 4 decimals.
      expect(Math.round(c.latitude * 1e4) / 1e4).toBe(c.latitude);
      expect(Math.round(c.longitude * 1e4) / 1e4).toBe(c.longitude);
      expect(typeof c.postal_code).toBe('string');
      expect(c.postal_code.trim()).toBe(c.postal_code);
      expect(c.timezone).not.toBe('');
      expect(c.timezone).toContain('/');
      // Throws RangeError for an unknown IANA zone.
      expect(() => new Intl.DateTimeFormat('en', { timeZone: c.timezone })).not.toThrow();
    });
  });
});

describe('cityNames', () => {
  it('returns the names in table order', () => {
    expect(cityNames()).toEqual(CITIES.map((c) => c.city_name));
    expect(cityNames()).toContain('Dublin');
  });

  it('returns a fresh array each call', () => {
    const a = cityNames();
    a.push('Atlantis');
    expect(cityNames()).not.toContain('Atlantis');
  });
});

describe('locationForIp', () => {
  it('returns a location_data object with keys in interface order', () => {
    const loc = locationForIp('8.8.8.8');
    expect(loc).not.toBeNull();
    expect(Object.keys(loc ?? {})).toEqual(KEY_ORDER);
    expect(loc?.type).toBe('location_data');
  });

  it('returns a copy of one of the table entries', () => {
    const loc = locationForIp('203.0.113.7');
    expect(loc).not.toBeNull();
    const { type, ...rest } = loc ?? { type: 'location_data' };
    expect(type).toBe('location_data');
    expect(CITIES).toContainEqual(rest);
  });

  it('is deterministic', () => {
    const ips = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2001:db8::1', '2606:4700:4700::1111'];
    for (const ip of ips) {
      const a = locationForIp(ip);
      const b = locationForIp(ip);
      expect(a).not.toBeNull();
      expect(a).toEqual(b);
      expect(a).not.toBe(b);
    }
  });

  it('returns fresh objects that do not leak mutations', () => {
    const a = locationForIp('8.8.8.8');
    expect(a).not.toBeNull();
    if (a === null) return;
    const original = a.city_name;
    a.city_name = 'Mutated';
    expect(locationForIp('8.8.8.8')?.city_name).toBe(original);
    expect(CITIES.some((c) => c.city_name === 'Mutated')).toBe(false);
  });

  it('pins a few mappings so the hash cannot change silently', () => {
    expect(locationForIp('8.8.8.8')?.city_name).toBe('Guatemala City');
    expect(locationForIp('2001:db8::1')?.city_name).toBe('Mumbai');
  });

  it('spreads different IPs over the whole table', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const ip = `${1 + (i % 200)}.${(i * 7) % 256}.${(i * 13) % 256}.${i % 256}`;
      const loc = locationForIp(ip);
      if (loc !== null) seen.add(loc.city_name);
    }
    expect(seen.size).toBe(CITIES.length);
  });

  it('does not send neighbouring addresses all to one city', () => {
    const seen = new Set<string>();
    for (let i = 1; i <= 20; i++) seen.add(locationForIp(`8.8.8.${i}`)?.city_name ?? 'null');
    expect(seen.has('null')).toBe(false);
    expect(seen.size).toBeGreaterThan(5);
  });

  it('gives equivalent IPv6 spellings the same city', () => {
    const spellings = [
      '2001:db8::1',
      '2001:DB8::1',
      '2001:0db8::0001',
      '2001:db8:0:0:0:0:0:1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:db8:0::0:1',
      '2001:db8::0:0:1',
    ];
    const expected = locationForIp(spellings[0] ?? '');
    expect(expected).not.toBeNull();
    for (const s of spellings) expect(locationForIp(s)).toEqual(expected);
  });

  it('treats IPv4-mapped IPv6 as the IPv4 address', () => {
    const v4 = locationForIp('8.8.4.4');
    expect(v4).not.toBeNull();
    expect(locationForIp('::ffff:8.8.4.4')).toEqual(v4);
    expect(locationForIp('::FFFF:8.8.4.4')).toEqual(v4);
    expect(locationForIp('::ffff:808:404')).toEqual(v4);
    expect(locationForIp('0:0:0:0:0:ffff:8.8.4.4')).toEqual(v4);
    expect(locationForIp('0:0:0:0:0:ffff:0808:0404')).toEqual(v4);
  });

  it('accepts the usual compressed and embedded-IPv4 forms', () => {
    for (const ip of [
      '2001:db8::',
      '::2',
      '1::',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7::',
      '::2:3:4:5:6:7:8',
      '1:2:3:4:5:6:1.2.3.4',
      '64:ff9b::1.2.3.4',
      '::1.2.3.4',
      'ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255',
    ]) {
      expect(locationForIp(ip), ip).not.toBeNull();
    }
  });

  it('accepts IPv4 edge values', () => {
    for (const ip of ['1.0.0.0', '255.255.255.255', '0.0.0.1', '100.64.0.1', '172.15.255.255', '172.32.0.0', '192.167.1.1', '169.253.0.1', '11.0.0.0']) {
      expect(locationForIp(ip), ip).not.toBeNull();
    }
  });

  it('returns null for syntactically invalid input', () => {
    for (const ip of [
      '',
      ' ',
      'localhost',
      'example.com',
      '1.2.3',
      '1.2.3.4.5',
      '1.2.3.',
      '.1.2.3',
      '1..2.3',
      '256.1.1.1',
      '1.2.3.256',
      '01.2.3.4',
      '1.2.3.04',
      '00.0.0.1',
      '1.2.3.4 ',
      ' 1.2.3.4',
      '+1.2.3.4',
      '1.2.3.-4',
      '1.2.3.4/24',
      '1e1.2.3.4',
      '0x1.2.3.4',
      '１.２.３.４',
      ':',
      ':::',
      '1:2',
      '1::2::3',
      ':1::2',
      '1::2:',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7:8::',
      '::1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7',
      '12345::1',
      'g::1',
      '2001:db8::1%eth0',
      '[2001:db8::1]',
      '1.2.3.4::',
      '1.2.3.4::5',
      '::ffff:1.2.3',
      '::ffff:256.1.1.1',
      '::ffff:01.2.3.4',
      '1:2:3:4:5:6:7:1.2.3.4',
      '::1.2.3.4:5',
      'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255',
      '0'.repeat(10_000),
    ]) {
      expect(locationForIp(ip), JSON.stringify(ip)).toBeNull();
    }
  });

  it('returns null for private, loopback, link-local and unspecified IPv4', () => {
    for (const ip of [
      '10.0.0.0',
      '10.1.2.3',
      '10.255.255.255',
      '172.16.0.0',
      '172.20.1.1',
      '172.31.255.255',
      '192.168.0.1',
      '192.168.255.255',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.0.1',
      '169.254.169.254',
      '0.0.0.0',
    ]) {
      expect(locationForIp(ip), ip).toBeNull();
    }
  });

  it('returns null for loopback, unspecified, unique-local and link-local IPv6', () => {
    for (const ip of [
      '::1',
      '::',
      '0:0:0:0:0:0:0:1',
      '0:0:0:0:0:0:0:0',
      '0000:0000:0000:0000:0000:0000:0000:0001',
      '::0.0.0.1',
      'fc00::1',
      'fd12:3456:789a::1',
      'FDFF:ffff::',
      'fe80::1',
      'fe80::abcd:1234',
      'febf:ffff::1',
      '::ffff:10.0.0.1',
      '::ffff:192.168.1.1',
      '::ffff:127.0.0.1',
      '::ffff:0.0.0.0',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(locationForIp(ip), ip).toBeNull();
    }
  });

  it('keeps addresses just outside the non-geographic IPv6 ranges', () => {
    for (const ip of ['fbff::1', 'fe00::1', 'fec0::1', '::2', '1::1']) {
      expect(locationForIp(ip), ip).not.toBeNull();
    }
  });
});

describe('locationForIp near the special ranges', () => {
  it('reads an address as IPv4-mapped only with all five leading groups zero and ffff', () => {
    const v4 = locationForIp('8.8.4.4');
    for (const ip of ['1::ffff:808:404', '0:1::ffff:808:404', '0:0:1::ffff:808:404', '0:0:0:1:0:ffff:808:404', '::1:ffff:808:404', '::fffe:808:404']) {
      expect(locationForIp(ip), ip).not.toBeNull();
      expect(locationForIp(ip), ip).not.toEqual(v4);
    }
  });

  it('places public addresses that share an octet with a private range', () => {
    for (const ip of ['8.20.1.1', '1.168.1.1', '1.254.1.1', '0.1.0.0', '0.0.1.0', '0.0.0.1', '173.16.0.0']) {
      expect(locationForIp(ip), ip).not.toBeNull();
    }
    for (const ip of ['172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '0.0.0.0', '10.1.2.3', '127.0.0.1']) {
      expect(locationForIp(ip), ip).toBeNull();
    }
  });
});
