import { z } from 'zod';
import { AnimaticOptions, PdfBoardOptions, TimelineOptions, type ExportKind } from '../contract/exports.js';
import { StoryboardFrame } from '../contract/index.js';
import type { StoredExport } from '../store/export-store.js';
import { renderAnimatic } from './animatic.js';
import type { ExportBoard, ExportProgress } from './export-board.js';
import { pdfBoard } from './pdf/pdf-board.js';
import { shotListPdf } from './pdf/shot-list-pdf.js';
import { shotListFile, shotListRows } from './shot-list.js';
import { cmx3600Edl } from './timeline/edl.js';
import { fcpXml } from './timeline/fcp-xml.js';
import { otioTimeline } from './timeline/otio.js';
import type { TimelineCut } from './timeline/timeline-cut.js';

/**
 * One export job's file, by its kind: the board rendered with the job's options, named after the board. A
 * failure a person can act on is an ExportFailure with a code and words; anything else is a fault of ours.
 */

export class ExportFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RenderedExport {
  bytes: Buffer;
  contentType: string;
  fileName: string;
  warnings: string[];
}

/** A file name from the board's title: letters, digits, spaces, dashes and underscores (any script). */
export function fileStem(board: Pick<ExportBoard, 'boardTitle'>): string {
  return (
    board.boardTitle
      .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80) || 'Board'
  );
}

/** The animatic's file name, which the editors' timelines refer to. */
export function animaticFileName(board: Pick<ExportBoard, 'boardTitle'>): string {
  return `${fileStem(board)} animatic.mp4`;
}

const TEXT = 'text/plain; charset=utf-8';

export async function renderExport(
  job: Pick<StoredExport, 'kind' | 'options'>,
  board: ExportBoard,
  logo: string | null,
  context: { signal: AbortSignal; progress: ExportProgress },
): Promise<RenderedExport> {
  const stem = fileStem(board);
  const kind = job.kind as ExportKind;
  const named = (file: { bytes: Buffer; contentType: string; extension: string }, suffix: string) => ({
    bytes: file.bytes,
    contentType: file.contentType,
    fileName: `${stem}${suffix}.${file.extension}`,
  });
  const timeline = (): TimelineCut => ({
    title: board.boardTitle,
    rate: TimelineOptions.parse(job.options).frame_rate,
    mediaFileName: animaticFileName(board),
    hasAudio: true,
    shots: board.shots.map((shot) => ({ id: shot.id, number: shot.number, durationMs: shot.durationMs })),
  });
  switch (kind) {
    case 'pdf_board': {
      const file = await pdfBoard(board, PdfBoardOptions.parse(job.options), logo, context.progress);
      return { ...named(file, ' storyboard'), warnings: file.warnings };
    }
    case 'shot_list_pdf':
      return {
        ...named(await shotListPdf(board, PdfBoardOptions.parse(job.options), context.progress, logo), ' shot list'),
        warnings: [],
      };
    case 'animatic': {
      const file = await renderAnimatic(board, AnimaticOptions.parse(job.options), context.progress, context.signal);
      return { ...named(file, ' animatic'), warnings: file.warnings };
    }
    case 'shot_list_csv':
    case 'shot_list_xlsx': {
      const frames = z.array(StoryboardFrame).parse(board.sourceFrames ?? []);
      // Numbered and timed exactly as the board's PDF, animatic and timelines (a video shot by its clip's length).
      const rows = shotListRows(frames).map((row, index) => {
        const shot = board.shots[index];
        return shot ? { ...row, number: shot.number, durationMs: shot.durationMs } : row;
      });
      const file = await shotListFile(
        board.boardTitle,
        rows,
        kind === 'shot_list_csv' ? 'csv' : 'xlsx',
        new Date(`${board.date}T00:00:00Z`),
      );
      return { ...named(file, ' shot list'), warnings: [] };
    }
    case 'otio':
      return {
        bytes: Buffer.from(otioTimeline(timeline())),
        contentType: 'application/json',
        fileName: `${stem}.otio`,
        warnings: [],
      };
    case 'fcp_xml':
      return {
        bytes: Buffer.from(fcpXml(timeline())),
        contentType: 'application/xml',
        fileName: `${stem}.xml`,
        warnings: [],
      };
    case 'edl':
      return { bytes: Buffer.from(cmx3600Edl(timeline())), contentType: TEXT, fileName: `${stem}.edl`, warnings: [] };
    default:
      throw new ExportFailure('invalid_arguments', `There is no export of kind ${String(kind)}.`);
  }
}
