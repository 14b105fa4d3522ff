import { createHash, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as x509 from '@peculiar/x509';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasEdge, CanvasNode, ExportView, UploadReceipt, type NodeRun } from '../../src/contract/index.js';
import { readCredentials, type CredentialsReport } from '../../src/provenance/c2pa-signer.js';
import { createContentCredentials } from '../../src/provenance/content-credentials.js';
import { deploymentTrustAnchor } from '../../src/provenance/credentials.js';
import { DIGITAL_SOURCE_TYPE } from '../../src/provenance/manifests.js';
import { ProviderError } from '../../src/runs/providers/provider.js';
import { LOCAL_MODEL } from '../../src/runs/providers/local-provider.js';
import { createLogger } from '../../src/shared/logger.js';
import { PACKAGE } from '../../src/shared/package-facts.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { IDP } from '../backend/world.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { probe } from '../support/media.js';
import { api, startTestServer, type ApiRequest } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { png } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';
import { cli } from '../support/cli.js';
import { PNG } from '@trustnxt/c2pa-ts/asset';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import { ManifestStore } from '@trustnxt/c2pa-ts/manifest';

/**
 * Content credentials (docs/provenance.md): run outputs and exports made by a real server carry a C2PA manifest that
 * c2pa-rs's reader (the Content Authenticity Initiative's, in @contentauth/c2pa-wasm) validates against the
 * deployment's CA or a configured one; one changed byte of the media makes it Invalid. Read back from the bytes a
 * browser downloads.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

interface ManifestView {
  actions: Array<{
    action: string;
    digitalSourceType?: string;
    softwareAgent?: { name: string };
    parameters?: { ingredients?: unknown[] };
  }>;
  assertion(label: string): Record<string, unknown> | undefined;
}

function viewOf(report: CredentialsReport): ManifestView {
  const find = (label: string) => report.manifest.assertions.find((assertion) => assertion.label === label);
  const actions = (find('c2pa.actions.v2') ?? find('c2pa.actions'))?.data as { actions: ManifestView['actions'] };
  return { actions: actions.actions, assertion: (label) => find(label)?.data as Record<string, unknown> | undefined };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The bytes with one byte of the media itself (not the manifest) flipped: inside the chunk or box named. */
function tampered(bytes: Buffer, marker: string, offset: number): Buffer {
  const at = bytes.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  const copy = Buffer.from(bytes);
  copy[at + offset] = copy[at + offset]! ^ 0xff;
  return copy;
}

/** A CA and an ES256 leaf it issued for C2PA signing (digitalSignature; emailProtection, documentSigning). */
async function studioCertificate(): Promise<{ keyPem: string; chainPem: string; caPem: string }> {
  x509.cryptoProvider.set(webcrypto);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const now = Date.now();
  const caKeys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a01',
    name: 'CN=Test Studio Root CA, O=Test Studio',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86_400_000),
    keys: caKeys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leafKeys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '0a02',
    subject: 'CN=Test Studio signer, O=Test Studio',
    issuer: ca.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86_400_000),
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.4', '1.3.6.1.5.5.7.3.36'], false),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  const key = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey)).toString('base64');
  return {
    keyPem: `-----BEGIN PRIVATE KEY-----\n${key.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`,
    chainPem: `${leaf.toString('pem')}\n${ca.toString('pem')}\n`,
    caPem: `${ca.toString('pem')}\n`,
  };
}

/** A server on SQLite with run and export workers, a project p with a canvas c, and "ed" its editor signed in. */
async function studio(overrides: Record<string, unknown> = {}) {
  const server = await startTestServer(STORE_TARGETS[0]!, {
    workers: 2,
    runDurationMs: 0,
    rateLimitPerMinute: 1_000_000,
    exportMaxMinutes: 1,
    ...overrides,
  });
  const { projects } = server.store;
  await projects.createWorkspace('w');
  await projects.createProject('p', 'w');
  await projects.createCanvas('p', 'c', false);
  await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
  const asEd = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
  let revision = 0;
  const target = () => ({
    projectId: 'p',
    canvasId: 'c',
    baseRevision: revision,
    clientSaveId: null,
    authorization: SYSTEM_WRITE,
  });
  const node = async (id: string, type: string, data: Record<string, unknown>) => {
    const receipt = await server.store.writes.createNode(
      target(),
      CanvasNode.parse({ id, type, position: { x: 0, y: 0 }, data }),
    );
    revision = receipt.revision;
  };
  const edge = async (source: string, nodeTarget: string) => {
    const receipt = await server.store.writes.createEdge(
      target(),
      CanvasEdge.parse({ id: `${source}-${nodeTarget}`, source, target: nodeTarget }),
    );
    revision = receipt.revision;
  };
  const download = async (url: string, request: ApiRequest = {}) =>
    Buffer.from(await (await fetch(new URL(url, server.url), { headers: request.headers })).arrayBuffer());
  const run = async (nodeId: string): Promise<{ run: NodeRun; bytes: Buffer }> => {
    const submitted = await api(
      server.url,
      `${CANVAS}/nodes/${nodeId}/runs`,
      asEd({ method: 'POST', headers: { 'idempotency-key': `${nodeId}-${Date.now()}` } }),
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const runId = (submitted.body as NodeRun).run_id;
    const done = await waitFor(
      async () => (await api(server.url, `${CANVAS}/runs/${runId}`, asEd())).body as NodeRun,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      60_000,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    return { run: done, bytes: await download(done.outputs[0]!.url) };
  };
  return { server, asEd, node, edge, run, download };
}

describe('content credentials on a deployment certificate', () => {
  let context: Awaited<ReturnType<typeof studio>>;
  let anchor: string;
  let picture: { run: NodeRun; bytes: Buffer };

  beforeAll(async () => {
    context = await studio();
    anchor = await deploymentTrustAnchor(context.server.store);
    await context.node('frame', 'imageGenNode', {
      prompt: 'a lighthouse',
      size: '1K',
      imageUrl: null,
      aspectRatio: '16:9',
    });
    picture = await context.run('frame');
  }, 60_000);
  afterAll(async () => context?.server.close());

  it('a generated picture says it was made by a trained model, by which provider and model, in which project and run', async () => {
    const report = (await readCredentials(picture.bytes, 'image/png', anchor))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(report.failures).toEqual([]);
    expect(report.manifest.claim_generator_info?.[0]).toMatchObject({ name: 'canvas-mcp', version: PACKAGE.version });
    expect(report.manifest.signature_info).toMatchObject({ alg: 'Es256', issuer: 'canvas-mcp deployment' });
    const view = viewOf(report);
    expect(view.actions).toEqual([
      expect.objectContaining({
        action: 'c2pa.created',
        digitalSourceType: DIGITAL_SOURCE_TYPE.trainedAlgorithmicMedia,
        softwareAgent: { name: `local/${LOCAL_MODEL}` },
      }),
    ]);
    expect(view.assertion('com.canvas-mcp.generation')).toMatchObject({
      provider: 'local',
      model: LOCAL_MODEL,
      operation: 'image_generation',
      project_id: 'p',
      canvas_id: 'c',
      node_id: 'frame',
      run_id: picture.run.run_id,
      asset_id: picture.run.outputs[0]!.asset_id,
      inputs_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Still the picture it was: a PNG of the run's size.
    expect(await sharp(picture.bytes).metadata()).toMatchObject({ format: 'png', width: 256, height: 144 });
  });

  it('an independent reader (c2pa-ts, a second implementation) finds the manifest valid, and the tampered file not', async () => {
    const check = async (bytes: Buffer) => {
      const asset = new PNG(new Uint8Array(bytes));
      const store = ManifestStore.read(SuperBox.fromBuffer(new Uint8Array(asset.getManifestJUMBF()!)));
      const result = await store.validate(asset);
      return {
        valid: result.isValid,
        failures: result.statusEntries.filter((entry) => !entry.success).map((entry) => String(entry.code)),
      };
    };
    const intact = await check(picture.bytes);
    // Our own CA is not among its trust anchors: the only failure allowed is an untrusted signer.
    expect(intact.failures.filter((code) => !/untrusted|trust/i.test(code))).toEqual([]);
    const broken = await check(tampered(picture.bytes, 'IDAT', 12));
    expect(broken.valid).toBe(false);
    expect(broken.failures.join(' ')).toMatch(/dataHash\.mismatch/);
  });

  it("a result's credentials are read over its signed URL, trusted under the deployment's own certificate", async () => {
    const url = new URL(picture.run.outputs[0]!.url, context.server.url);
    const read = await fetch(`${url.origin}${url.pathname}/credentials${url.search}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      credentials: {
        state: 'Trusted',
        made_by: `local/${LOCAL_MODEL}`,
        source_type: 'trainedAlgorithmicMedia',
        generation: { project_id: 'p', run_id: picture.run.run_id },
      },
    });
    const unsigned = await fetch(`${url.origin}${url.pathname}/credentials`);
    expect(unsigned.status).toBe(401);
  });

  it('canvas-mcp admin verify prints what the credentials say, trusted with the deployment CA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-verify-'));
    try {
      const file = join(dir, 'frame.png');
      const trust = join(dir, 'deployment-ca.pem');
      writeFileSync(file, picture.bytes);
      writeFileSync(trust, anchor);
      const verified = await cli(['admin', 'verify', file, '--trust', trust, '--json']);
      expect(verified.code, `${verified.stderr} ${verified.stdout}`).toBe(0);
      expect(verified.json).toMatchObject({
        credentials: {
          state: 'Trusted',
          failures: [],
          made_by: `local/${LOCAL_MODEL}`,
          source_type: 'trainedAlgorithmicMedia',
          generation: { provider: 'local', project_id: 'p', run_id: picture.run.run_id },
        },
      });
      const plain = join(dir, 'plain.png');
      writeFileSync(plain, await png());
      expect((await cli(['admin', 'verify', plain, '--json'])).json).toMatchObject({
        credentials: null,
        reason: 'none',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without the deployment CA among its trust anchors a reader calls the manifest intact but its signer untrusted', async () => {
    const report = (await readCredentials(picture.bytes, 'image/png'))!;
    expect(report.state).toBe('Valid');
    expect(report.failures.map((failure) => failure.code)).toEqual(['signingCredential.untrusted']);
  });

  it('one changed byte of the picture makes the reader report Invalid', async () => {
    const report = await readCredentials(tampered(picture.bytes, 'IDAT', 12), 'image/png', anchor);
    expect(report?.state).toBe('Invalid');
    expect(report?.failures.map((failure) => failure.code)).toContain('assertion.dataHash.mismatch');
  });

  it('a generated film (a video story, MP4) carries its credentials, and tampering with its frames breaks them', async () => {
    await context.node('story', 'videoStoryNode', {
      shots: [
        { id: 's1', prompt: 'wide', durationMs: 500 },
        { id: 's2', prompt: 'close', durationMs: 500 },
      ],
      aspectRatio: '16:9',
    });
    const film = await context.run('story');
    expect(film.run.outputs[0]!.mime_type).toBe('video/mp4');
    const report = (await readCredentials(film.bytes, 'video/mp4', anchor))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(viewOf(report).actions[0]).toMatchObject({
      action: 'c2pa.created',
      digitalSourceType: DIGITAL_SOURCE_TYPE.trainedAlgorithmicMedia,
    });
    expect(viewOf(report).assertion('com.canvas-mcp.generation')).toMatchObject({
      provider: 'local',
      operation: 'video_story',
      project_id: 'p',
      run_id: film.run.run_id,
    });
    expect(
      probe(film.bytes)
        .streams.map((stream) => stream.codec_type)
        .sort(),
    ).toEqual(['audio', 'video']);
    const broken = await readCredentials(tampered(film.bytes, 'mdat', 200), 'video/mp4', anchor);
    expect(broken?.state).toBe('Invalid');
  });

  it("a trimmed sound is an edit of its source: the source is its parent ingredient, with the source's own credentials", async () => {
    await context.node('voice', 'audioNode', { audioUrl: null, text: 'A storm is coming.' });
    const voice = await context.run('voice');
    await context.node('trim', 'audioTrimNode', { trimStartMs: 100, trimEndMs: 600 });
    await context.edge('voice', 'trim');
    const trimmed = await context.run('trim');
    const report = (await readCredentials(trimmed.bytes, 'audio/wav', anchor))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(viewOf(report).actions.map((action) => action.action)).toEqual(['c2pa.opened', 'c2pa.edited']);
    const sourceId = voice.run.outputs[0]!.asset_id;
    expect(report.manifest.ingredients).toEqual([
      expect.objectContaining({
        title: sourceId,
        format: 'audio/wav',
        relationship: 'parentOf',
        // The source's own manifest (it was signed when its run made it) travels inside the edit's.
        active_manifest: expect.stringMatching(/^urn:c2pa:/),
        metadata: expect.objectContaining({
          'com.canvas-mcp.asset_id': sourceId,
          'com.canvas-mcp.sha256': sha256(voice.bytes),
        }),
      }),
    ]);
    expect(probe(trimmed.bytes).streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'pcm_s16le' });
  });

  it("a video node's film (MP4, no longer WebM, which has no place for a manifest) carries its credentials", async () => {
    await context.node('clip', 'videoNode', { videoUrl: null, prompt: 'waves', aspectRatio: '16:9', durationMs: 500 });
    const clip = await context.run('clip');
    expect(clip.run.outputs[0]!.mime_type).toBe('video/mp4');
    const report = (await readCredentials(clip.bytes, 'video/mp4', anchor))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(viewOf(report).actions[0]).toMatchObject({ digitalSourceType: DIGITAL_SOURCE_TYPE.trainedAlgorithmicMedia });
  });

  it('an upload that arrived with credentials keeps them as its parent ingredient, though the intake re-encodes it', async () => {
    const { server } = context;
    const editor = await projectToken(server.store, 'p', 'editor');
    const form = new FormData();
    // A picture signed elsewhere: here, one this deployment made, downloaded and brought back as a person's file.
    form.append('file', new Blob([new Uint8Array(picture.bytes)], { type: 'image/png' }), 'from-the-studio.png');
    const uploaded = await fetch(`${server.url}${CANVAS}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    const [kept] = UploadReceipt.parse(await uploaded.json()).uploads;
    const bytes = await context.download(kept!.url, { headers: { authorization: `Bearer ${editor}` } });
    expect(bytes.equals(picture.bytes)).toBe(false);
    const report = (await readCredentials(bytes, kept!.mime_type, anchor))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(viewOf(report).actions.map((action) => action.action)).toEqual(['c2pa.opened', 'c2pa.edited']);
    expect(report.manifest.ingredients).toEqual([
      expect.objectContaining({
        title: 'from-the-studio.png',
        relationship: 'parentOf',
        // The original's own manifest travels with it.
        active_manifest: expect.stringMatching(/^urn:c2pa:/),
      }),
    ]);
  });

  it('a PDF export says canvas-mcp export made it from generated and uploaded pictures, named with their hashes', async () => {
    const { server, asEd } = context;
    const editor = await projectToken(server.store, 'p', 'editor');
    const form = new FormData();
    const upload = await png(320, 180);
    form.append('file', new Blob([new Uint8Array(upload)], { type: 'image/png' }), 'sketch.png');
    const uploaded = await fetch(`${server.url}${CANVAS}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    const [sketch] = UploadReceipt.parse(await uploaded.json()).uploads;
    // An upload is a person's own file: it is kept without credentials of ours.
    const keptUpload = await context.download(sketch!.url, { headers: { authorization: `Bearer ${editor}` } });
    expect(await readCredentials(keptUpload, 'image/png')).toBeNull();

    await context.node('board', 'storyboardNode', {
      title: 'Harbour',
      aspectRatio: '16:9',
      frames: [
        { id: 'a', number: '1', durationMs: 1000, imageUrl: picture.run.outputs[0]!.url },
        { id: 'b', number: '2', durationMs: 1000, imageUrl: sketch!.url },
      ],
    });
    const started = await api(
      server.url,
      `${CANVAS}/exports`,
      asEd({ method: 'POST', body: { kind: 'pdf_board', node_id: 'board' } }),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const job = await waitFor(
      async () =>
        ExportView.parse(
          (await api(server.url, `${CANVAS}/exports/${ExportView.parse(started.body).export_id}`, asEd())).body,
        ),
      (current) => current.status !== 'queued' && current.status !== 'running',
      60_000,
      100,
    );
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const pdf = await context.download(job.file!.url, asEd());

    const report = (await readCredentials(pdf, 'application/pdf', anchor))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(viewOf(report).actions).toEqual([
      expect.objectContaining({
        action: 'c2pa.created',
        digitalSourceType: DIGITAL_SOURCE_TYPE.compositeWithTrainedAlgorithmicMedia,
        softwareAgent: expect.objectContaining({ name: 'canvas-mcp export' }),
      }),
    ]);
    expect(viewOf(report).assertion('com.canvas-mcp.export')).toMatchObject({
      export_id: job.export_id,
      kind: 'pdf_board',
      project_id: 'p',
      node_id: 'board',
      revision: job.revision,
    });
    const generatedId = picture.run.outputs[0]!.asset_id;
    expect(report.manifest.ingredients.map((ingredient) => [ingredient.title, ingredient.relationship])).toEqual([
      [generatedId, 'componentOf'],
      ['sketch.png', 'componentOf'],
    ]);
    expect(report.manifest.ingredients[0]!.metadata).toMatchObject({ 'com.canvas-mcp.sha256': sha256(picture.bytes) });
    expect(report.manifest.ingredients[1]!.metadata).toMatchObject({ 'com.canvas-mcp.sha256': sha256(keptUpload) });
    expect((await readCredentials(tampered(pdf, 'stream', 40), 'application/pdf', anchor))?.state).toBe('Invalid');
    // Still a PDF that opens, with its pages.
    const document = await getDocument({ data: new Uint8Array(pdf) }).promise;
    expect(document.numPages).toBeGreaterThan(0);
  });
});

describe('content credentials with a configured key and certificate', () => {
  let context: Awaited<ReturnType<typeof studio>>;
  let certificate: Awaited<ReturnType<typeof studioCertificate>>;
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-c2pa-'));

  beforeAll(async () => {
    certificate = await studioCertificate();
    writeFileSync(join(dir, 'signer.key'), certificate.keyPem, { mode: 0o600 });
    writeFileSync(join(dir, 'chain.pem'), certificate.chainPem);
    context = await studio({ c2paKeyFile: join(dir, 'signer.key'), c2paCertFile: join(dir, 'chain.pem') });
  }, 60_000);
  afterAll(async () => {
    await context?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("signs with the given certificate: trusted under the studio's CA, not under the deployment's own", async () => {
    await context.node('frame', 'imageGenNode', {
      prompt: 'a harbour',
      size: '1K',
      imageUrl: null,
      aspectRatio: '1:1',
    });
    const { bytes } = await context.run('frame');
    const report = (await readCredentials(bytes, 'image/png', certificate.caPem))!;
    expect(report.state, JSON.stringify(report.failures)).toBe('Trusted');
    expect(report.manifest.signature_info).toMatchObject({ common_name: 'Test Studio signer', issuer: 'Test Studio' });
    expect(viewOf(report).actions[0]!.digitalSourceType).toBe(DIGITAL_SOURCE_TYPE.trainedAlgorithmicMedia);
    const deployment = await deploymentTrustAnchor(context.server.store);
    expect((await readCredentials(bytes, 'image/png', deployment))!.state).toBe('Valid');
    expect(context.server.logs.join('')).not.toContain('PRIVATE KEY');
  });
});

describe('when a file cannot be signed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-c2pa-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = {
    runId: 'run_1',
    projectId: 'p',
    canvasId: 'c',
    nodeId: 'n',
    operation: 'image_generation',
    provider: 'local',
    model: null,
    inputsHash: null,
    input: {},
    references: [],
  };
  const capture = () => {
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(chunk.toString());
          callback();
        },
      }),
    );
    return { lines, logger };
  };

  it('with credentials configured it fails the file (nothing unsigned is kept), naming no key', async () => {
    const [first, second] = [await studioCertificate(), await studioCertificate()];
    // The key of one certificate with the chain of another.
    writeFileSync(join(dir, 'key.pem'), first.keyPem);
    writeFileSync(join(dir, 'chain.pem'), second.chainPem);
    const { lines, logger } = capture();
    const credentials = createContentCredentials({
      store: { sharedSecret: () => Promise.reject(new Error('unused')), assets: { getAsset: async () => null } },
      inputFile: async () => null,
      keyFile: join(dir, 'key.pem'),
      certFile: join(dir, 'chain.pem'),
      logger,
    });
    expect(credentials.failClosed).toBe(true);
    const signing = credentials.forRun(run, logger);
    const failure = await signing
      .sign({ assetId: 'asset_x', mimeType: 'image/png', bytes: await png(), title: 'x.png' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ code: 'content_credentials_failed', retryable: false });
    expect(lines.join('')).toContain('is not the certificate of the key');
    expect(lines.join('')).not.toContain('PRIVATE KEY');
    // A type C2PA cannot carry is stored as made, even so.
    const webm = Buffer.from('1a45dfa3', 'hex');
    expect(await signing.sign({ assetId: 'asset_y', mimeType: 'video/webm', bytes: webm, title: 'y' })).toBe(webm);
  });

  it('on the deployment certificate it keeps the file unsigned and logs a warning', async () => {
    const { lines, logger } = capture();
    const credentials = createContentCredentials({
      store: { sharedSecret: () => Promise.reject(new Error('database away')), assets: { getAsset: async () => null } },
      inputFile: async () => null,
      logger,
    });
    expect(credentials.failClosed).toBe(false);
    const picture = await png();
    const kept = await credentials.forRun(run, logger).sign({
      assetId: 'asset_x',
      mimeType: 'image/png',
      bytes: picture,
      title: 'x.png',
    });
    expect(kept.equals(picture)).toBe(true);
    expect(lines.join('')).toMatch(/"level":40.*could not be signed; stored without them/);
  });

  it('an export kept unsigned on the deployment certificate says so, for its warnings', async () => {
    const { logger } = capture();
    const credentials = createContentCredentials({
      store: { sharedSecret: () => Promise.reject(new Error('database away')), assets: { getAsset: async () => null } },
      inputFile: async () => null,
      logger,
    });
    const bytes = Buffer.from('%PDF-1.4\n%%EOF\n');
    const job = {
      exportId: 'export_1',
      kind: 'pdf_board',
      projectId: 'p',
      canvasId: 'c',
      nodeId: 'n',
      revision: 1,
      components: [],
      fileOf: () => null,
    };
    const kept = await credentials.signExport(job, { bytes, mimeType: 'application/pdf', title: 'b.pdf' }, logger);
    expect(kept.bytes.equals(bytes)).toBe(true);
    expect(kept.unsigned).toMatch(/not signed with content credentials: signing failed/);
  });
});

describe('an export over the signing limit', () => {
  let context: Awaited<ReturnType<typeof studio>>;
  // A limit any animatic passes: the file is kept, unsigned, and the export says so and why.
  beforeAll(async () => {
    context = await studio({ c2paSignMaxBytes: 4096 });
  }, 60_000);
  afterAll(async () => context?.server.close());

  it('is stored without credentials and succeeds with a warning that says it is not signed and why', async () => {
    const { server, asEd } = context;
    await context.node('board', 'storyboardNode', {
      title: 'Harbour',
      aspectRatio: '16:9',
      frames: [{ id: 'a', number: '1', durationMs: 1000, imageUrl: null }],
    });
    const started = await api(
      server.url,
      `${CANVAS}/exports`,
      asEd({ method: 'POST', body: { kind: 'animatic', node_id: 'board', options: { resolution: '720p' } } }),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const job = await waitFor(
      async () =>
        ExportView.parse(
          (await api(server.url, `${CANVAS}/exports/${ExportView.parse(started.body).export_id}`, asEd())).body,
        ),
      (current) => current.status !== 'queued' && current.status !== 'running',
      60_000,
      100,
    );
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const film = await context.download(job.file!.url, asEd());
    expect(film.length).toBeGreaterThan(4096);
    expect(await readCredentials(film, 'video/mp4')).toBeNull();
    const warning = job.warnings.find((each) => /content credentials/i.test(each));
    expect(warning, JSON.stringify(job.warnings)).toMatch(/not signed/);
    expect(warning).toMatch(/signing limit/);
    expect(warning).toContain('--c2pa-sign-max-bytes');
  });
});
