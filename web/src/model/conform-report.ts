import { TIMELINE_FORMATS, type ConformReport } from '../../../src/contract/index.js';

/**
 * A conform's report in words (docs/deliverables.md, "Conform"): what the editor's timeline changed on the board, shot
 * by shot, as the Exports tab shows it after the Conform button.
 */

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function conformSummary(report: ConformReport, fileName: string): { headline: string; details: string[] } {
  const rate = `${report.frame_rate} fps`;
  const read = `${fileName} (${TIMELINE_FORMATS[report.format]}, ${plural(report.clips, 'clip')} at ${rate})`;
  const details = [
    ...report.durations.map((change) =>
      change.from_frames === change.to_frames
        ? `Shot ${change.number}: ${seconds(change.from_ms)} → ${seconds(change.to_ms)}, kept on its ${change.to_frames} frames (a shot beside it moved)`
        : `Shot ${change.number}: ${seconds(change.from_ms)} → ${seconds(change.to_ms)} (${change.from_frames} → ${change.to_frames} frames at ${rate})`,
    ),
    ...report.moved.map(
      (move) => `Shot ${move.number} moved from place ${move.from_position} to place ${move.to_position}`,
    ),
    ...report.omitted.map((shot) => `Shot ${shot.number} was dropped from the cut: marked omitted (kept on the board)`),
    ...report.restored.map((shot) => `Shot ${shot.number} is back in the cut: marked draft`),
    ...report.added.map(
      (shot) =>
        `Shot ${shot.number} added at place ${shot.position}: “${shot.name}”, ${seconds(shot.duration_ms)} (${shot.frames} frames)`,
    ),
    ...report.notes.map((note) => `Note: ${note}`),
  ];
  if (report.revision === null)
    return { headline: `Nothing changed: the board already plays the cut of ${read}.`, details };
  const counts = [
    report.durations.length ? plural(report.durations.length, 'duration') : null,
    report.moved.length ? `${report.moved.length} moved` : null,
    report.omitted.length ? `${report.omitted.length} omitted` : null,
    report.restored.length ? `${report.restored.length} restored` : null,
    report.added.length ? `${report.added.length} added` : null,
  ].filter((part): part is string => part !== null);
  return {
    headline: `Conformed to ${read} in revision ${report.revision}: ${counts.join(', ') || 'changes'}.`,
    details,
  };
}
