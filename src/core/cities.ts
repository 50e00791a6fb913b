/**
 * Built-in city table and a deterministic IP -> city mapping.
 *
 * The mock has no GeoIP database, yet the API exposes `location_data` for
 * users, leads and visitors. Hashing the IP into a fixed table keeps responses
 * plausible and, above all, reproducible across runs and machines.
 */

export interface LocationData {
  type: 'location_data';
  city_name: string;
  continent_code: string;
  country_name: string;
  latitude: number;
  longitude: number;
  postal_code: string;
  region_name: string;
  timezone: string;
  country_code: string;
}

type City = Omit<LocationData, 'type'>;

// Positional rows keep the table readable; `row` restores the key order of
// LocationData so serialised output matches the real API field order.
type Row = [
  city_name: string,
  region_name: string,
  country_name: string,
  country_code: string,
  continent_code: string,
  latitude: number,
  longitude: number,
  postal_code: string,
  timezone: string,
];

function row(r: Row): City {
  const [city_name, region_name, country_name, country_code, continent_code, latitude, longitude, postal_code, timezone] = r;
  return Object.freeze({
    city_name,
    continent_code,
    country_name,
    latitude,
    longitude,
    postal_code,
    region_name,
    timezone,
    country_code,
  });
}

// postal_code is "" for countries that have no postal code system.
const ROWS: Row[] = [
  // Europe
  ['Dublin', 'Leinster', 'Ireland', 'IE', 'EU', 53.3498, -6.2603, 'D02 X285', 'Europe/Dublin'],
  ['London', 'England', 'United Kingdom', 'GB', 'EU', 51.5074, -0.1278, 'SW1A 1AA', 'Europe/London'],
  ['Paris', 'Île-de-France', 'France', 'FR', 'EU', 48.8566, 2.3522, '75001', 'Europe/Paris'],
  ['Berlin', 'Berlin', 'Germany', 'DE', 'EU', 52.52, 13.405, '10115', 'Europe/Berlin'],
  ['Madrid', 'Madrid', 'Spain', 'ES', 'EU', 40.4168, -3.7038, '28013', 'Europe/Madrid'],
  ['Rome', 'Lazio', 'Italy', 'IT', 'EU', 41.9028, 12.4964, '00184', 'Europe/Rome'],
  ['Amsterdam', 'North Holland', 'Netherlands', 'NL', 'EU', 52.3676, 4.9041, '1012 JS', 'Europe/Amsterdam'],
  ['Stockholm', 'Stockholm County', 'Sweden', 'SE', 'EU', 59.3293, 18.0686, '111 29', 'Europe/Stockholm'],
  ['Warsaw', 'Mazovia', 'Poland', 'PL', 'EU', 52.2297, 21.0122, '00-001', 'Europe/Warsaw'],
  ['Lisbon', 'Lisbon', 'Portugal', 'PT', 'EU', 38.7223, -9.1393, '1100-148', 'Europe/Lisbon'],
  ['Athens', 'Attica', 'Greece', 'GR', 'EU', 37.9838, 23.7275, '105 57', 'Europe/Athens'],
  ['Zurich', 'Zurich', 'Switzerland', 'CH', 'EU', 47.3769, 8.5417, '8001', 'Europe/Zurich'],
  ['Vienna', 'Vienna', 'Austria', 'AT', 'EU', 48.2082, 16.3738, '1010', 'Europe/Vienna'],
  ['Prague', 'Prague', 'Czechia', 'CZ', 'EU', 50.0755, 14.4378, '110 00', 'Europe/Prague'],
  ['Helsinki', 'Uusimaa', 'Finland', 'FI', 'EU', 60.1699, 24.9384, '00100', 'Europe/Helsinki'],
  // North America
  ['New York', 'New York', 'United States', 'US', 'NA', 40.7128, -74.006, '10001', 'America/New_York'],
  ['San Francisco', 'California', 'United States', 'US', 'NA', 37.7749, -122.4194, '94103', 'America/Los_Angeles'],
  ['Chicago', 'Illinois', 'United States', 'US', 'NA', 41.8781, -87.6298, '60601', 'America/Chicago'],
  ['Denver', 'Colorado', 'United States', 'US', 'NA', 39.7392, -104.9903, '80202', 'America/Denver'],
  ['Anchorage', 'Alaska', 'United States', 'US', 'NA', 61.2181, -149.9003, '99501', 'America/Anchorage'],
  ['Toronto', 'Ontario', 'Canada', 'CA', 'NA', 43.6532, -79.3832, 'M5H 2N2', 'America/Toronto'],
  ['Vancouver', 'British Columbia', 'Canada', 'CA', 'NA', 49.2827, -123.1207, 'V6B 1A1', 'America/Vancouver'],
  ['Mexico City', 'Mexico City', 'Mexico', 'MX', 'NA', 19.4326, -99.1332, '06000', 'America/Mexico_City'],
  ['Guatemala City', 'Guatemala', 'Guatemala', 'GT', 'NA', 14.6349, -90.5069, '01001', 'America/Guatemala'],
  // South America
  ['São Paulo', 'São Paulo', 'Brazil', 'BR', 'SA', -23.5505, -46.6333, '01310-100', 'America/Sao_Paulo'],
  ['Rio de Janeiro', 'Rio de Janeiro', 'Brazil', 'BR', 'SA', -22.9068, -43.1729, '20040-020', 'America/Sao_Paulo'],
  ['Buenos Aires', 'Buenos Aires', 'Argentina', 'AR', 'SA', -34.6037, -58.3816, 'C1002', 'America/Argentina/Buenos_Aires'],
  ['Santiago', 'Santiago Metropolitan', 'Chile', 'CL', 'SA', -33.4489, -70.6693, '8320000', 'America/Santiago'],
  ['Lima', 'Lima', 'Peru', 'PE', 'SA', -12.0464, -77.0428, '15001', 'America/Lima'],
  ['Bogotá', 'Bogota D.C.', 'Colombia', 'CO', 'SA', 4.711, -74.0721, '110111', 'America/Bogota'],
  ['Montevideo', 'Montevideo', 'Uruguay', 'UY', 'SA', -34.9011, -56.1645, '11000', 'America/Montevideo'],
  ['Caracas', 'Capital District', 'Venezuela', 'VE', 'SA', 10.4806, -66.9036, '1010', 'America/Caracas'],
  // Asia
  ['Tokyo', 'Tokyo', 'Japan', 'JP', 'AS', 35.6762, 139.6503, '100-0001', 'Asia/Tokyo'],
  ['Seoul', 'Seoul', 'South Korea', 'KR', 'AS', 37.5665, 126.978, '04524', 'Asia/Seoul'],
  ['Shanghai', 'Shanghai', 'China', 'CN', 'AS', 31.2304, 121.4737, '200000', 'Asia/Shanghai'],
  ['Hong Kong', 'Central and Western District', 'Hong Kong', 'HK', 'AS', 22.3193, 114.1694, '', 'Asia/Hong_Kong'],
  ['Taipei', 'Taipei City', 'Taiwan', 'TW', 'AS', 25.033, 121.5654, '100', 'Asia/Taipei'],
  ['Singapore', 'Singapore', 'Singapore', 'SG', 'AS', 1.3521, 103.8198, '018956', 'Asia/Singapore'],
  ['Mumbai', 'Maharashtra', 'India', 'IN', 'AS', 19.076, 72.8777, '400001', 'Asia/Kolkata'],
  ['Bengaluru', 'Karnataka', 'India', 'IN', 'AS', 12.9716, 77.5946, '560001', 'Asia/Kolkata'],
  ['Dubai', 'Dubai', 'United Arab Emirates', 'AE', 'AS', 25.2048, 55.2708, '', 'Asia/Dubai'],
  ['Doha', 'Baladiyat ad Dawhah', 'Qatar', 'QA', 'AS', 25.2854, 51.531, '', 'Asia/Qatar'],
  ['Tel Aviv', 'Tel Aviv', 'Israel', 'IL', 'AS', 32.0853, 34.7818, '6473424', 'Asia/Jerusalem'],
  ['Bangkok', 'Bangkok', 'Thailand', 'TH', 'AS', 13.7563, 100.5018, '10200', 'Asia/Bangkok'],
  ['Jakarta', 'Jakarta', 'Indonesia', 'ID', 'AS', -6.2088, 106.8456, '10110', 'Asia/Jakarta'],
  ['Manila', 'Metro Manila', 'Philippines', 'PH', 'AS', 14.5995, 120.9842, '1000', 'Asia/Manila'],
  // Africa
  ['Lagos', 'Lagos', 'Nigeria', 'NG', 'AF', 6.5244, 3.3792, '100001', 'Africa/Lagos'],
  ['Nairobi', 'Nairobi County', 'Kenya', 'KE', 'AF', -1.2921, 36.8219, '00100', 'Africa/Nairobi'],
  ['Cairo', 'Cairo Governorate', 'Egypt', 'EG', 'AF', 30.0444, 31.2357, '11511', 'Africa/Cairo'],
  ['Cape Town', 'Western Cape', 'South Africa', 'ZA', 'AF', -33.9249, 18.4241, '8001', 'Africa/Johannesburg'],
  ['Johannesburg', 'Gauteng', 'South Africa', 'ZA', 'AF', -26.2041, 28.0473, '2001', 'Africa/Johannesburg'],
  ['Casablanca', 'Casablanca-Settat', 'Morocco', 'MA', 'AF', 33.5731, -7.5898, '20000', 'Africa/Casablanca'],
  ['Addis Ababa', 'Addis Ababa', 'Ethiopia', 'ET', 'AF', 9.032, 38.7469, '1000', 'Africa/Addis_Ababa'],
  ['Kampala', 'Central Region', 'Uganda', 'UG', 'AF', 0.3476, 32.5825, '', 'Africa/Kampala'],
  // Oceania
  ['Sydney', 'New South Wales', 'Australia', 'AU', 'OC', -33.8688, 151.2093, '2000', 'Australia/Sydney'],
  ['Melbourne', 'Victoria', 'Australia', 'AU', 'OC', -37.8136, 144.9631, '3000', 'Australia/Melbourne'],
  ['Perth', 'Western Australia', 'Australia', 'AU', 'OC', -31.9505, 115.8605, '6000', 'Australia/Perth'],
  ['Auckland', 'Auckland', 'New Zealand', 'NZ', 'OC', -36.8485, 174.7633, '1010', 'Pacific/Auckland'],
  ['Wellington', 'Wellington', 'New Zealand', 'NZ', 'OC', -41.2865, 174.7762, '6011', 'Pacific/Auckland'],
  ['Suva', 'Central Division', 'Fiji', 'FJ', 'OC', -18.1248, 178.4501, '', 'Pacific/Fiji'],
  // Antarctica
  ['McMurdo Station', 'Ross Dependency', 'Antarctica', 'AQ', 'AN', -77.8419, 166.6863, '', 'Antarctica/McMurdo'],
];

export const CITIES: readonly Omit<LocationData, 'type'>[] = Object.freeze(ROWS.map(row));

export function cityNames(): string[] {
  return CITIES.map((c) => c.city_name);
}

/**
 * Maps an IP address to a city of the table, or null when the string is not
 * an IP address or the address cannot have a geographic location.
 */
export function locationForIp(ip: string): LocationData | null {
  const key = geoKey(ip);
  if (key === null) return null;
  const city = CITIES[fnv1a32(key) % CITIES.length];
  if (city === undefined) return null;
  return {
    type: 'location_data',
    city_name: city.city_name,
    continent_code: city.continent_code,
    country_name: city.country_name,
    latitude: city.latitude,
    longitude: city.longitude,
    postal_code: city.postal_code,
    region_name: city.region_name,
    timezone: city.timezone,
    country_code: city.country_code,
  };
}

// FNV-1a is tiny, stable across platforms and spreads short keys well enough
// for picking a table row; it is not meant to resist deliberate collisions.
function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The canonical spelling used as hash key, or null when there is no location.
 * IPv4-mapped IPv6 addresses collapse to their dotted IPv4 form because they
 * denote the very same host.
 */
function geoKey(ip: string): string | null {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return isNonGeoIPv4(v4) ? null : v4.join('.');

  const v6 = parseIPv6(ip);
  if (v6 === null) return null;
  if (isV4Mapped(v6)) {
    const g6 = v6[6] ?? 0;
    const g7 = v6[7] ?? 0;
    const mapped = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
    return isNonGeoIPv4(mapped) ? null : mapped.join('.');
  }
  if (isNonGeoIPv6(v6)) return null;
  // Fully expanded, lower-case, no leading zeros: one spelling per address.
  return v6.map((g) => g.toString(16)).join(':');
}

function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    // Leading zeros are rejected because some parsers read them as octal.
    if (p.length === 0 || p.length > 3 || !/^(0|[1-9][0-9]*)$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | null {
  // 45 = longest textual form ("ffff:...:ffff:255.255.255.255"); the bound
  // also keeps split() cheap on garbage input.
  if (s.length < 2 || s.length > 45) return null;
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return null;

  const gap = s.indexOf('::');
  if (gap !== -1 && s.indexOf('::', gap + 1) !== -1) return null;

  const head = gap === -1 ? s : s.slice(0, gap);
  const tail = gap === -1 ? '' : s.slice(gap + 2);
  // Only the last 32 bits of the address may be written as dotted IPv4.
  const headGroups = parseGroups(head, gap === -1);
  const tailGroups = parseGroups(tail, true);
  if (headGroups === null || tailGroups === null) return null;

  const count = headGroups.length + tailGroups.length;
  if (gap === -1) return count === 8 ? headGroups : null;
  if (count > 7) return null;
  return [...headGroups, ...new Array<number>(8 - count).fill(0), ...tailGroups];
}

function parseGroups(part: string, v4AllowedAtEnd: boolean): number[] | null {
  if (part === '') return [];
  const pieces = part.split(':');
  const out: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    // Stryker disable next-line StringLiteral: equivalent, i is always within pieces
    const p = pieces[i] ?? '';
    if (p.includes('.')) {
      if (!v4AllowedAtEnd || i !== pieces.length - 1) return null;
      const v4 = parseIPv4(p);
      if (v4 === null) return null;
      const [a = 0, b = 0, c = 0, d = 0] = v4;
      out.push((a << 8) | b, (c << 8) | d);
    } else {
      if (!/^[0-9A-Fa-f]{1,4}$/.test(p)) return null;
      out.push(parseInt(p, 16));
    }
  }
  return out;
}

function isV4Mapped(g: number[]): boolean {
  return g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
}

function isNonGeoIPv4(o: number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0] = o;
  return (
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 0 && b === 0 && c === 0 && d === 0)
  );
}

function isNonGeoIPv6(g: number[]): boolean {
  const first = g[0] ?? 0;
  const allZeroUpTo7 = g.slice(0, 7).every((x) => x === 0);
  return (
    (allZeroUpTo7 && (g[7] === 0 || g[7] === 1)) || // :: and ::1
    (first & 0xfe00) === 0xfc00 || // fc00::/7 unique local
    (first & 0xffc0) === 0xfe80 // fe80::/10 link-local
  );
}
