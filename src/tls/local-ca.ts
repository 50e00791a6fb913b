// Making the local CA and the certificate it issues for localhost, with @peculiar/x509 over Node's
// WebCrypto (ECDSA P-256, which every client of the API accepts). Loaded only when --tls has to
// make one: the library needs a Reflect metadata polyfill in the process.

import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type Key = webcrypto.CryptoKey;
type KeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** The names the certificate is for (subject alternative names). */
const LOCAL_NAMES = { dns: ['localhost'], ip: ['127.0.0.1', '::1'] } as const;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600 * 1000;
/** Long enough to trust once; a client is asked to trust a new one only when it runs out. */
const CA_DAYS = 10 * 365;
/** Within what clients accept of a server certificate (Apple's platforms: 825 days). */
const CERT_DAYS = 365;

export interface Issued {
  caCert: string;
  caKey: string;
  cert: string;
  key: string;
}

/** A positive serial number of 16 random bytes. */
function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

async function pkcs8Pem(key: Key): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

async function importPkcs8Pem(pem: string): Promise<Key> {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

async function newCa(at: Date): Promise<{ cert: x509.X509Certificate; keys: KeyPair }> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=messaging-api-mock local CA, O=messaging-api-mock',
    notBefore: new Date(at.getTime() - DAY_MS),
    notAfter: new Date(at.getTime() + CA_DAYS * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, keys };
}

/** A certificate for localhost, 127.0.0.1 and ::1, from the CA given (PEM) or from a new one. */
export async function issueLocalCertificates(ca: { cert: string; key: string } | undefined, at: Date): Promise<Issued> {
  const authority = ca ? { cert: new x509.X509Certificate(ca.cert), key: await importPkcs8Pem(ca.key) } : undefined;
  const made = authority ? undefined : await newCa(at);
  const caCert = authority?.cert ?? (made as { cert: x509.X509Certificate }).cert;
  const caKey = authority?.key ?? (made as { keys: KeyPair }).keys.privateKey;
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=localhost, O=messaging-api-mock',
    issuer: caCert.subject,
    notBefore: new Date(at.getTime() - DAY_MS),
    notAfter: new Date(at.getTime() + CERT_DAYS * DAY_MS),
    signingKey: caKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([...LOCAL_NAMES.dns.map((value) => ({ type: 'dns' as const, value })), ...LOCAL_NAMES.ip.map((value) => ({ type: 'ip' as const, value }))]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return {
    caCert: caCert.toString('pem'),
    caKey: ca ? ca.key : await pkcs8Pem(caKey),
    cert: cert.toString('pem'),
    key: await pkcs8Pem(keys.privateKey),
  };
}
