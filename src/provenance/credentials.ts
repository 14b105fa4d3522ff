import { X509Certificate, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { pemBlocks } from './c2pa-signer.js';

/**
 * Where the deployment's signing key and certificate chain come from (docs/provenance.md, "Keys"):
 * - the `c2paKeyFile` and `c2paCertFile` settings: PEM files, a PKCS#8 P-256 key and the chain leaf first (a
 *   certificate from a CA on the C2PA trust list makes readers say "trusted");
 * - without them, a deployment certificate made at first need: a CA of this deployment and an ES256 leaf it issued,
 *   kept in the store (`server_secrets`), so every server and worker of the deployment signs with the same one. Its
 *   signatures verify as intact ("Valid") but readers call the signer untrusted until their trust list holds its CA.
 * The private key is a secret: it is never logged nor put in an error.
 */

export interface SigningCredentials {
  keyPem: string;
  /** The certificate chain, leaf first. */
  chainPem: string;
  /** `configured`: from the settings; `deployment`: made by this deployment. */
  source: 'configured' | 'deployment';
}

/** The name of the deployment certificate in the store's shared secrets. */
export const DEPLOYMENT_SECRET = 'c2pa_signing_certificate';

const Stored = z.object({ key: z.string(), chain: z.string(), ca: z.string() });

interface SecretStore {
  sharedSecret(name: string, make?: () => string | Promise<string>): Promise<string>;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 86_400_000;

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

const serial = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

/**
 * A CA of this deployment and an ES256 leaf it issued for C2PA signing (C2PA requires a leaf issued by a CA, with
 * digitalSignature and the emailProtection or documentSigning purposes). The CA's own key is dropped once the leaf is
 * made: nothing else can be issued under it.
 */
export async function makeDeploymentCertificate(
  now: Date = new Date(),
): Promise<{ keyPem: string; chainPem: string; caPem: string }> {
  // Loaded when a deployment makes its certificate, once: not with the server.
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto);
  const notBefore = new Date(now.getTime() - 60_000);
  const id = randomBytes(4).toString('hex');
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial('01'),
    name: `CN=canvas-mcp deployment ${id} C2PA CA, O=canvas-mcp deployment`,
    notBefore,
    notAfter: new Date(now.getTime() + 20 * YEAR_MS),
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leafKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial('02'),
    subject: `CN=canvas-mcp deployment ${id} content credentials, O=canvas-mcp deployment`,
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(now.getTime() + 10 * YEAR_MS),
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.4', '1.3.6.1.5.5.7.3.36'], false),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  const caPem = `${ca.toString('pem')}\n`;
  return {
    keyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey)),
    chainPem: `${leaf.toString('pem')}\n${caPem}`,
    caPem,
  };
}

async function deploymentCertificate(store: SecretStore): Promise<z.output<typeof Stored>> {
  const stored = await store.sharedSecret(DEPLOYMENT_SECRET, async () => {
    const made = await makeDeploymentCertificate();
    return JSON.stringify({ key: made.keyPem, chain: made.chainPem, ca: made.caPem });
  });
  return Stored.parse(JSON.parse(stored));
}

/** The deployment CA's certificate (PEM): what a reader trusts to call this deployment's signatures "Trusted". */
export async function deploymentTrustAnchor(store: SecretStore): Promise<string> {
  return (await deploymentCertificate(store)).ca;
}

/** Why configured credentials cannot be used, naming the setting and never the key. */
export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
}

async function readSetting(path: string, setting: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new CredentialsError(`${setting}: cannot read ${path}`);
  }
}

/** The configured key and chain, checked: a P-256 PKCS#8 key, certificates leaf first, the leaf's key the key's. */
async function configuredCredentials(keyFile: string, certFile: string): Promise<SigningCredentials> {
  const keyPem = await readSetting(keyFile, '--c2pa-key-file (CANVAS_MCP_C2PA_KEY_FILE)');
  const chainPem = await readSetting(certFile, '--c2pa-cert-file (CANVAS_MCP_C2PA_CERT_FILE)');
  if (!keyPem.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new CredentialsError(`--c2pa-key-file: ${keyFile} is not a PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----)`);
  }
  const certificates = pemBlocks(chainPem);
  if (certificates.length === 0) {
    throw new CredentialsError(`--c2pa-cert-file: ${certFile} holds no PEM certificate`);
  }
  let matches: boolean;
  try {
    const key = createPrivateKey(keyPem);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new CredentialsError('--c2pa-key-file: the key must be an EC P-256 key (ES256)');
    }
    matches = new X509Certificate(Buffer.from(certificates[0]!)).checkPrivateKey(key);
  } catch (error) {
    if (error instanceof CredentialsError) throw error;
    throw new CredentialsError(
      `--c2pa-key-file / --c2pa-cert-file: ${keyFile} or ${certFile} is not a PEM key or certificate`,
    );
  }
  if (!matches) {
    throw new CredentialsError(
      `--c2pa-cert-file: the first certificate of ${certFile} is not the certificate of the key in ${keyFile}`,
    );
  }
  return { keyPem, chainPem, source: 'configured' };
}

/** The credentials this deployment signs with: the configured ones, else its own certificate. */
export async function signingCredentials(options: {
  keyFile?: string | undefined;
  certFile?: string | undefined;
  store: SecretStore;
}): Promise<SigningCredentials> {
  if (options.keyFile && options.certFile) return configuredCredentials(options.keyFile, options.certFile);
  const made = await deploymentCertificate(options.store);
  return { keyPem: made.key, chainPem: made.chain, source: 'deployment' };
}
