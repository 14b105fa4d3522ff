import { z } from 'zod';

/**
 * Frame rates of the editor's timeline, the animatic and review: 23.976 is 24000/1001 (non-drop), 29.97 is 30000/1001
 * (drop-frame). A module of its own: exports and review both name it, and review is imported by exports.
 */
export const FRAME_RATES = ['23.976', '24', '25', '29.97', '30'] as const;
export const FrameRate = z.enum(FRAME_RATES);
export type FrameRate = z.infer<typeof FrameRate>;
