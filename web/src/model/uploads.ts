import type { CanvasNode, UploadReceipt } from '../../../src/contract/index.js';
import { ApiError, type CanvasAddress } from './api.js';
import { newNodeId } from './palette.js';
import { freeSpotNear, NEW_CARD, type Box } from './placement.js';

/**
 * A person's own files onto the canvas (docs/ui.md, "Your own files"): sent to the upload route in one request (with
 * its progress), then shown as the cards the server answers, placed where they were dropped, one beside the other, on
 * free spots.
 */

/** Sends files to the canvas's upload route; `onProgress` hears the fraction of bytes sent (0 to 1). */
export function sendFiles(
  { projectId, canvasId }: CanvasAddress,
  files: readonly File[],
  onProgress: (fraction: number) => void,
): Promise<UploadReceipt> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  // XMLHttpRequest, not fetch: only it reports how much of a request body has gone.
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(
      'POST',
      `/api/v2/projects/${encodeURIComponent(projectId)}/canvases/${encodeURIComponent(canvasId)}/uploads`,
    );
    request.setRequestHeader('x-requested-by', 'canvas-mcp');
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError(0, 'network', 'The connection dropped during the upload.'));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status === 201) return resolve(body as UploadReceipt);
      const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
      reject(new ApiError(request.status, error?.code ?? 'unknown', error?.message ?? `HTTP ${request.status}`));
    };
    request.send(form);
  });
}

/**
 * The cards for uploaded files: the first centred where they were dropped, the others beside it in a row, each on the
 * nearest spot that covers no card.
 */
export function uploadedNodes(
  receipt: UploadReceipt,
  at: { x: number; y: number },
  boxes: readonly Box[],
): CanvasNode[] {
  const taken = [...boxes];
  let near = at;
  return receipt.uploads.map((upload) => {
    const size = cardSize(upload.width, upload.height);
    const position = freeSpotNear(taken, near, size);
    taken.push({ ...position, ...size });
    near = { x: position.x + size.width * 1.5 + 40, y: position.y + size.height / 2 };
    return {
      id: newNodeId(upload.node_type),
      type: upload.node_type,
      position,
      data: upload.node_data,
    } as CanvasNode;
  });
}

/** A card's footprint for placement: a picture's card is as tall as its picture at the card's width, and its chips. */
function cardSize(width: number | null, height: number | null): { width: number; height: number } {
  if (!width || !height) return NEW_CARD;
  return { width: NEW_CARD.width, height: Math.min(600, Math.round((NEW_CARD.width * height) / width) + 110) };
}
