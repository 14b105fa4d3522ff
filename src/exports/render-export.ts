import { z } from 'zod';
import {
  AnimaticOptions,
  PdfBoardOptions,
  PdfSheetOptions,
  TimelineOptions,
  type ExportKind,
} from '../contract/exports.js';
import { StoryboardFrame } from '../contract/index.js';
import type { StoredExport } from '../store/export-store.js';
import { renderAnimatic } from './animatic.js';
import type { ExportBoard, ExportProgress } from './export-board.js';
import { shotListFile, shotListRows } from './shot-list.js';
import { cmx3600Edl } from './timeline/edl.js';
import { otioTimeline } from './timeline/otio.js';
import { otiozBundle } from './timeline/otioz.js';
import type { TimelineCut } from './timeline/timeline-cut.js';
import { MAX_EXPORT_NOTES } from './review-notes.js';

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
  // The cut the animatic and the timelines play: the board's shots but the omitted ones (a conform marks a shot the
  // editor dropped as omitted; it stays on the board, out of the film).
  const omitted = board.shots.filter((_, index) => board.sourceFrames?.[index]?.status === 'omitted');
  const cut: ExportBoard = { ...board, shots: board.shots.filter((shot) => !omitted.includes(shot)) };
  const cutWarnings = omitted.map((shot) => `Shot ${shot.number} is omitted: it is left out of the cut.`);
  const playing = () => {
    if (cut.shots.length === 0)
      throw new ExportFailure('invalid_arguments', 'Every shot of the board is omitted: there is no cut to export.');
    return cut;
  };
  // Notes are read for an export only when its options want them (markers, notes pages): none are cut otherwise.
  const notesWarnings = board.notesLeftOut
    ? [`${board.notesLeftOut} more open comment threads are left out: an export carries ${MAX_EXPORT_NOTES} at most.`]
    : [];
  const timeline = (): TimelineCut => {
    const options = TimelineOptions.parse(job.options);
    return {
      title: board.boardTitle,
      rate: options.frame_rate,
      mediaFileName: animaticFileName(board),
      hasAudio: true,
      shots: playing().shots.map((shot) => ({
        id: shot.id,
        number: shot.number,
        durationMs: shot.durationMs,
        move: shot.move ?? null,
      })),
      notes: options.markers ? (board.notes ?? []) : [],
    };
  };
  const timelineWarnings = [...cutWarnings, ...notesWarnings];
  // The PDF writers (pdfkit, its fonts) and the XML timeline writers are loaded at their first export, not with the server.
  switch (kind) {
    case 'pdf_board': {
      const { pdfBoard } = await import('./pdf/pdf-board.js');
      const file = await pdfBoard(board, PdfBoardOptions.parse(job.options), logo, context.progress);
      return { ...named(file, ' storyboard'), warnings: [...file.warnings, ...notesWarnings] };
    }
    case 'shot_list_pdf': {
      const { shotListPdf } = await import('./pdf/shot-list-pdf.js');
      return {
        ...named(await shotListPdf(board, PdfSheetOptions.parse(job.options), context.progress, logo), ' shot list'),
        warnings: [],
      };
    }
    case 'animatic': {
      const file = await renderAnimatic(
        playing(),
        AnimaticOptions.parse(job.options),
        context.progress,
        context.signal,
      );
      return { ...named(file, ' animatic'), warnings: [...cutWarnings, ...file.warnings] };
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
        warnings: timelineWarnings,
      };
    case 'otioz': {
      const cutOf = timeline();
      // The bundle carries the animatic its clips are cut from, made here at the timeline's rate with the defaults.
      const film = await renderAnimatic(
        playing(),
        AnimaticOptions.parse({ frame_rate: cutOf.rate }),
        (percent, message) => context.progress(percent * 0.95, message),
        context.signal,
      );
      context.progress(96, 'Bundling');
      const bundle = await otiozBundle(cutOf, film.bytes, playing().shots);
      return {
        bytes: bundle.bytes,
        contentType: 'application/zip',
        fileName: `${stem}.otioz`,
        warnings: [
          ...timelineWarnings,
          ...film.warnings,
          ...bundle.warnings,
          'The animatic inside the bundle carries no content credentials (an animatic export does: docs/provenance.md).',
        ],
      };
    }
    case 'fcp_xml':
      return {
        bytes: Buffer.from((await import('./timeline/fcp-xml.js')).fcpXml(timeline())),
        contentType: 'application/xml',
        fileName: `${stem}.xml`,
        warnings: timelineWarnings,
      };
    case 'fcpxml':
      return {
        bytes: Buffer.from((await import('./timeline/fcpxml.js')).fcpxml(timeline())),
        contentType: 'application/xml',
        fileName: `${stem}.fcpxml`,
        warnings: timelineWarnings,
      };
    case 'edl':
      return {
        bytes: Buffer.from(cmx3600Edl(timeline())),
        contentType: TEXT,
        fileName: `${stem}.edl`,
        warnings: timelineWarnings,
      };
    default:
      throw new ExportFailure('invalid_arguments', `There is no export of kind ${String(kind)}.`);
  }
}
