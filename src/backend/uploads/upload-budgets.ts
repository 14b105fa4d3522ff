import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { bytesInWords } from '../../shared/byte-size.js';
import { CanvasError } from '../../shared/errors.js';
import type { insertUploadRecords } from '../../store/asset-records.js';
import type { Store } from '../../store/store.js';
import { budgetKeyOf, type CallerContext } from '../auth/caller.js';

/**
 * How much uploads may add (docs/security.md, "Storage and media bounds"): a project keeps at most its storage quota
 * (every asset of it counted, checked in the transaction that records an upload), and one person sends at most so many
 * bytes an hour (counted as they arrive, in memory, per process). Without them one editor filled a disk in minutes.
 */

export interface UploadBudgetSettings {
  /** What one project's assets may take in all (`--project-storage-quota-bytes`). */
  projectQuotaBytes: number;
  /** What one person may upload in an hour (`--upload-bytes-per-hour`). */
  bytesPerHour: number;
}

const HOUR_SECONDS = 3600;
const QUOTA_SETTING = '--project-storage-quota-bytes, CANVAS_MCP_PROJECT_STORAGE_QUOTA_BYTES';
const RATE_SETTING = '--upload-bytes-per-hour, CANVAS_MCP_UPLOAD_BYTES_PER_HOUR';

type UploadRows = Parameters<typeof insertUploadRecords>[1];

export function createUploadBudgets(store: Store, settings: UploadBudgetSettings) {
  const hourly = new RateLimiterMemory({ points: settings.bytesPerHour, duration: HOUR_SECONDS });

  function overQuota(projectId: string, usedBytes: number, addingBytes: number): CanvasError {
    const quota = settings.projectQuotaBytes;
    return new CanvasError(
      'limit_exceeded',
      `Project ${projectId} has used ${bytesInWords(usedBytes)} of its ${bytesInWords(quota)} storage quota, and this upload of ${bytesInWords(addingBytes)} would pass it (${QUOTA_SETTING}): nothing was kept. The server's operator can raise the quota.`,
      {
        limit: 'project_storage_quota',
        used_bytes: usedBytes,
        limit_bytes: quota,
        upload_bytes: addingBytes,
      },
    );
  }

  function overRate(msBeforeNext: number, leftBytes: number): CanvasError {
    const retryAfterMs = Math.max(msBeforeNext, 1);
    return new CanvasError(
      'rate_limited',
      `One person may upload ${bytesInWords(settings.bytesPerHour)} an hour (${RATE_SETTING}), and you have ${bytesInWords(leftBytes)} of it left: retry in ${Math.ceil(retryAfterMs / 60_000)} min.`,
      {
        limit: 'upload_bytes_per_hour',
        limit_bytes: settings.bytesPerHour,
        left_bytes: leftBytes,
        retry_after_ms: retryAfterMs,
      },
    );
  }

  /** What the caller may still send this hour. */
  async function leftThisHour(ctx: CallerContext): Promise<{ bytes: number; msBeforeNext: number }> {
    const spent = await hourly.get(budgetKeyOf(ctx));
    return spent
      ? { bytes: Math.max(0, spent.remainingPoints), msBeforeNext: spent.msBeforeNext }
      : { bytes: settings.bytesPerHour, msBeforeNext: 0 };
  }

  return {
    settings,

    /** Before a byte of a body is read: refuses a caller who has sent all this hour allows. */
    async requireRoom(ctx: CallerContext): Promise<void> {
      const left = await leftThisHour(ctx);
      if (left.bytes <= 0) throw overRate(left.msBeforeNext, 0);
    },

    /** Before a direct upload is let in: the announced size against the hour's budget and the project's quota. */
    async requireRoomFor(ctx: CallerContext, projectId: string, bytes: number): Promise<void> {
      const left = await leftThisHour(ctx);
      if (bytes > left.bytes) throw overRate(left.msBeforeNext, left.bytes);
      const used = await store.assets.projectBytes(projectId);
      if (used + bytes > settings.projectQuotaBytes) throw overQuota(projectId, used, bytes);
    },

    /** Counts received bytes against the caller's hour; what the refusal itself counted is given back. */
    async spend(ctx: CallerContext, bytes: number): Promise<void> {
      if (bytes <= 0) return;
      const key = budgetKeyOf(ctx);
      try {
        await hourly.consume(key, bytes);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        await hourly.reward(key, bytes);
        throw overRate(rejection.msBeforeNext, Math.max(0, settings.bytesPerHour - (rejection.consumedPoints - bytes)));
      }
    },

    /** Records an upload's rows if the project stays within its quota with them; refuses naming the quota if not. */
    async keep(projectId: string, rows: UploadRows, createdAt: number): Promise<void> {
      const quota = { projectId, quotaBytes: settings.projectQuotaBytes };
      const outcome = await store.assets.insertUploadsWithin(quota, rows, createdAt);
      if (!outcome.kept)
        throw overQuota(
          projectId,
          outcome.usedBytes,
          rows.reduce((sum, row) => sum + row.byteSize, 0),
        );
    },
  };
}

export type UploadBudgets = ReturnType<typeof createUploadBudgets>;
