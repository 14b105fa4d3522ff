import type { ExportBoard } from '../../src/exports/export-board.js';

type Shot = ExportBoard['shots'][number];

/**
 * A board as the exports read it, with one shot ("1", "The bay", 2 s) showing `picture`: what the PDF tests draw
 * their marks on. `shot` adds or replaces fields of the shot (a camera move, a caption).
 */
export function oneShotBoard(picture: string, aspect = 16 / 9, shot: Partial<Shot> = {}): ExportBoard {
  return {
    projectName: 'Moonrise',
    canvasTitle: 'Pitch',
    boardTitle: 'Act One',
    revision: 1,
    date: '2024-05-01',
    aspect,
    music: null,
    shots: [
      {
        id: 's1',
        number: '1',
        caption: 'The bay',
        action: null,
        dialogue: null,
        notes: null,
        camera: null,
        lensMm: null,
        durationMs: 2000,
        picture,
        video: null,
        voiceOver: null,
        ...shot,
      },
    ],
  };
}
