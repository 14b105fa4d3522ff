import type { Assets } from '../assets/assets.js';
import type { Thumbnails } from '../assets/thumbnails.js';
import type { AssetSigner } from '../assets/url-signing.js';
import type { ContentCredentials } from '../provenance/content-credentials.js';
import type { BoardImages } from '../render/board-images.js';
import type { RunPricing } from '../runs/pricing.js';
import type { RunModels } from '../runs/run-models.js';
import type { ScriptReader } from '../storyboard/screenplay/read-pool.js';
import type { Logger } from '../shared/logger.js';
import type { Store } from '../store/store.js';
import { storeSeal } from '../webhooks/secrets.js';
import { createBackend, type RunSignals } from './canvas/backend.js';
import { createTemplateOperations } from './storyboard/canvas-templates.js';
import { createCheckpointOperations } from './canvas/checkpoints.js';
import { createDirectUploads } from './uploads/direct-uploads.js';
import { createElementOperations } from './storyboard/elements.js';
import { createExportOperations, type ExportSettings, type ExportSignals } from './deliverables/exports.js';
import type { FeedHub } from './feed/feed-hub.js';
import type { Mailer } from './team/mailer.js';
import { createPeopleOperations } from './team/people-operations.js';
import { createPeoplePictures } from './team/people-pictures.js';
import type { AssistantChat } from './review/assistant-threads.js';
import { createReviewOperations } from './review/index.js';
import { createMarkedFrames } from './deliverables/marked-frames.js';
import { createRunApprovalOperations } from './canvas/run-approvals.js';
import { createScriptImport } from './storyboard/script-import.js';
import { createServerFiles } from './uploads/server-files.js';
import { createConform } from './storyboard/conform.js';
import { createDrawings, type DrawingSettings } from './storyboard/drawings.js';
import { createContinuity } from './storyboard/continuity.js';
import { createShareLinkOperations } from './deliverables/share-links.js';
import { createTeamOperations } from './team/team-operations.js';
import { createUploads, type UploadSettings } from './uploads/uploads.js';
import { createWebhookOperations, type WebhookPolicy } from './team/webhook-operations.js';

/**
 * Every domain service of a backend process, built once, here. The HTTP app registers their routes, the in-process
 * MCP client calls the same objects, the workers are told of their signals: nothing below builds a service again, so
 * "what does this process run?" is answered by this file.
 */

export interface ServiceDependencies {
  store: Store;
  assets: Assets;
  signer: AssetSigner;
  mailer: Mailer | null;
  feed: FeedHub;
  clock: () => number;
  logger: Logger;
  /** Where people open the server (links in e-mail, share links, invitations): known once it listens. */
  publicOrigin: () => string;
  dataDir: string;
  /** The run engine's ears: a queued run starts, a cancelled one stops. */
  runSignals: RunSignals;
  /** The export workers' ears, once they run. */
  exportSignals: () => ExportSignals | null;
  pricing: RunPricing;
  /** The models runs go to and what they accept; the local provider's when absent. */
  models?: RunModels;
  /** The canvas chat, for the assistant that answers in threads (built beside the services: it calls /mcp). */
  chat: () => AssistantChat | null;
  scriptReader: ScriptReader;
  boardImages: BoardImages;
  thumbnails: Thumbnails;
  /** Keeps the content credentials an upload arrived with. */
  credentials: ContentCredentials;
  settings: {
    exports: ExportSettings;
    uploads: UploadSettings;
    drawings: Omit<DrawingSettings, 'projectQuotaBytes'>;
    webhooks: WebhookPolicy;
  };
}

export function createServices(deps: ServiceDependencies) {
  const { store, assets, signer, mailer, clock, logger, publicOrigin } = deps;
  const elements = createElementOperations(store, signer);
  const canvas = createBackend({
    store,
    clock,
    signer,
    runSignals: deps.runSignals,
    pricing: deps.pricing,
    models: deps.models,
    elements,
  });
  const templates = createTemplateOperations(store, canvas);
  const uploads = createUploads({
    store,
    assets,
    dataDir: deps.dataDir,
    clock,
    credentials: { signer: deps.credentials, logger },
    settings: deps.settings.uploads,
  });
  const review = createReviewOperations({
    store,
    mailer,
    publicOrigin,
    logger: logger.child({ component: 'review' }),
    chat: deps.chat,
    clock,
    changed: (ref) => deps.feed.poke(ref.projectId, ref.canvasId),
  });
  return {
    /** Canvases, nodes, edges and runs: the six tools' operations (src/backend/canvas/backend.ts). */
    canvas,
    elements,
    templates,
    uploads,
    directUploads: createDirectUploads({ store, uploads, assetStore: assets.writer, clock }),
    scriptImport: createScriptImport(store, canvas, deps.scriptReader, {
      assets,
      keep: createServerFiles({ store, assets, clock, projectQuotaBytes: deps.settings.uploads.projectQuotaBytes }),
    }),
    conform: createConform(store, canvas),
    drawings: createDrawings({
      store,
      assets,
      canvas,
      clock,
      settings: { ...deps.settings.drawings, projectQuotaBytes: deps.settings.uploads.projectQuotaBytes },
    }),
    continuity: createContinuity(store, canvas),
    checkpoints: createCheckpointOperations(store),
    runApprovals: createRunApprovalOperations(store, canvas),
    exports: createExportOperations(store, { signer, signals: deps.exportSignals, settings: deps.settings.exports }),
    shareLinks: createShareLinkOperations(store, { signer, publicOrigin, clock }),
    review,
    markedFrames: createMarkedFrames({ store, assets, threads: review.threads, clock }),
    people: createPeopleOperations(store, clock),
    pictures: createPeoplePictures(store, deps.settings.uploads),
    team: createTeamOperations(store, canvas, assets, publicOrigin, {
      mailer,
      storageQuotaBytes: deps.settings.uploads.projectQuotaBytes,
      templates,
    }),
    webhooks: createWebhookOperations(store, storeSeal(store), deps.settings.webhooks, clock),
    /** The stored files themselves, served by the asset routes. */
    assets,
    boardImages: deps.boardImages,
    thumbnails: deps.thumbnails,
  };
}

export type Services = ReturnType<typeof createServices>;
