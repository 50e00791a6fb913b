// What HTTPS serves with: the PEM files a user names (--tls-cert, --tls-key), or (--tls) a
// certificate for localhost, 127.0.0.1 and ::1 issued by a local CA that is made once and kept, so a
// client trusts the CA once and keeps trusting it across restarts. Reading and checking use Node's
// own X509Certificate; only making a certificate loads the library (tls/local-ca.ts).

import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { writeWhole } from '../write-whole.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

export interface TlsMaterial {
  /** PEM: the server's certificate (and any chain after it). */
  cert: string;
  /** PEM: its private key. */
  key: string;
  /** --tls: the CA's certificate, the file a client trusts. */
  caFile?: string;
  /** --tls: whether this start made the CA, renewed the server's certificate, or kept both. */
  made?: 'ca' | 'certificate' | 'nothing';
}

export class TlsError extends Error {}

/** A certificate with less than this left is made again (the CA's too). */
export const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

export const CA_FILE = 'ca.pem';
const CA_KEY_FILE = 'ca-key.pem';
const CERT_FILE = 'localhost.pem';
const KEY_FILE = 'localhost-key.pem';

/** Where --tls keeps its CA: `<data dir>/tls`, else the user's data directory (XDG). */
export function localTlsDir(dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (dataDir !== undefined) return join(dataDir, 'tls');
  if (env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '') return join(env.XDG_DATA_HOME, 'messaging-api-mock', 'tls');
  let home: string;
  try {
    home = homedir();
  } catch {
    throw new TlsError('--tls: no home directory to keep the local CA in: set HOME or XDG_DATA_HOME, or give --data-dir');
  }
  return join(home, '.local', 'share', 'messaging-api-mock', 'tls');
}

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new TlsError(`${what} ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

function parseCert(pem: string, file: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new TlsError(`--tls-cert ${file}: not a PEM certificate`);
  }
}

function parseKey(pem: string, file: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw new TlsError(`--tls-key ${file}: not a PEM private key (an encrypted key is not supported)`);
  }
}

/** --tls-cert and --tls-key: read and checked now, so a wrong file stops the start with one line. */
export function readTlsFiles(certFile: string, keyFile: string, now = Date.now()): TlsMaterial {
  const cert = readPem(certFile, '--tls-cert');
  const key = readPem(keyFile, '--tls-key');
  const x509 = parseCert(cert, certFile);
  if (!x509.checkPrivateKey(parseKey(key, keyFile))) throw new TlsError(`--tls-key ${keyFile} is not the key of the certificate in ${certFile}`);
  if (Date.parse(x509.validTo) <= now) throw new TlsError(`--tls-cert ${certFile} expired on ${new Date(Date.parse(x509.validTo)).toISOString()}`);
  return { cert, key };
}

/** The certificate in `file` if it parses, is valid for RENEW_BEFORE_MS more and `ok` holds for it. */
function usable(file: string, now: number, ok: (cert: X509Certificate) => boolean): X509Certificate | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const cert = new X509Certificate(readFileSync(file, 'utf8'));
    const from = Date.parse(cert.validFrom);
    const to = Date.parse(cert.validTo);
    return from <= now && to - now > RENEW_BEFORE_MS && ok(cert) ? cert : undefined;
  } catch {
    return undefined;
  }
}

function keyMatches(cert: X509Certificate, keyFile: string): boolean {
  try {
    return cert.checkPrivateKey(createPrivateKey(readFileSync(keyFile, 'utf8')));
  } catch {
    return false;
  }
}

/** Written whole or not at all; private keys readable by their owner only. */
const writeAtomically = (file: string, text: string, secret: boolean): void => writeWhole(file, text, secret ? 0o600 : 0o644);

/** The kept CA and certificate, when both can serve as they are. */
function kept(dir: string, now: number): { ca: X509Certificate | undefined; material: TlsMaterial | undefined } {
  const caFile = join(dir, CA_FILE);
  const ca = usable(caFile, now, (c) => c.ca && keyMatches(c, join(dir, CA_KEY_FILE)));
  const certFile = join(dir, CERT_FILE);
  const keyFile = join(dir, KEY_FILE);
  const leaf = ca && usable(certFile, now, (c) => c.checkIssued(ca) && c.verify(ca.publicKey) && keyMatches(c, keyFile) && c.checkHost('localhost') !== undefined && c.checkIP('127.0.0.1') !== undefined && c.checkIP('::1') !== undefined);
  return { ca, material: leaf ? { cert: leaf.toString(), key: readFileSync(keyFile, 'utf8'), caFile, made: 'nothing' } : undefined };
}

/**
 * --tls: the kept CA and certificate in `dir`, made (or the certificate renewed) when missing, not
 * valid for 30 more days, or not matching. A new CA means a client must trust it again, so the CA
 * is only made again when it is missing, unusable or about to expire.
 */
export async function localTls(dir: string, now = Date.now()): Promise<TlsMaterial> {
  // Kept and valid: nothing is written, so a read-only directory serves.
  const first = kept(dir, now).material;
  if (first) return first;
  let release: (() => Promise<void>) | undefined;
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Processes starting together on a fresh directory: one makes, the others then find it made.
    release = await lockfile.lock(dir, { lockfilePath: join(dir, 'making.lock'), stale: 10_000, retries: { retries: 100, factor: 1, minTimeout: 50, maxTimeout: 50 } });
    const again = kept(dir, now);
    if (again.material) return again.material;
    const caFile = join(dir, CA_FILE);
    const { issueLocalCertificates } = await import('./local-ca.js');
    const existing = again.ca ? { cert: readFileSync(caFile, 'utf8'), key: readFileSync(join(dir, CA_KEY_FILE), 'utf8') } : undefined;
    const issued = await issueLocalCertificates(existing, new Date(now));
    if (!again.ca) {
      writeAtomically(join(dir, CA_KEY_FILE), issued.caKey, true);
      writeAtomically(caFile, issued.caCert, false);
    }
    writeAtomically(join(dir, KEY_FILE), issued.key, true);
    writeAtomically(join(dir, CERT_FILE), issued.cert, false);
    return { cert: issued.cert, key: issued.key, caFile, made: again.ca ? 'certificate' : 'ca' };
  } catch (err) {
    throw new TlsError(`--tls: cannot keep the local CA in ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  } finally {
    await release?.().catch(() => undefined);
  }
}
