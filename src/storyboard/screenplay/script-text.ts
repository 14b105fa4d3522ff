import { ScriptRefused } from './reading.js';

/**
 * The limits a screenplay's text meets before a reader sees it (docs/security.md, "Script import"). fountain-js's
 * rules backtrack on long runs of white space at a line's start (a line of 350 spaces and a digit took seconds), and
 * its work grows faster than the text on very long lines: a line may hold at most SCRIPT_LINE_MAX_CHARS characters
 * (refused naming the line), and white space at a line's start or end is cut to a few characters. That loses nothing:
 * every element we keep is trimmed, and the one white space Fountain gives a meaning to, a line of exactly two spaces
 * inside dialogue, is kept.
 */

export const SCRIPT_LINE_MAX_CHARS = 10_000;
/** White space kept at the start of a line (indentation in a plain-text screenplay; ours trims it). */
export const SCRIPT_LEADING_SPACE_KEPT = 16;
/** White space kept at the end of a line: two, Fountain's forced line break. */
export const SCRIPT_TRAILING_SPACE_KEPT = 2;

/** The text with its line endings as `\n`, its lines within the limit and their edges' white space cut. */
export function screenplayText(text: string): string {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    const line = text.slice(0, nul).split('\n').length;
    throw new ScriptRefused(`This is not a text file: line ${line} holds a binary byte.`, line);
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.length > SCRIPT_LINE_MAX_CHARS)
      throw new ScriptRefused(
        `Line ${index + 1} is ${line.length} characters long; a script line may hold at most ${SCRIPT_LINE_MAX_CHARS}.`,
        index + 1,
      );
    // A line of white space alone: one or two characters mean something to Fountain (two spaces: a forced line
    // break), three or more are a blank line, as fountain-js reads them.
    // trimStart and trimEnd take every white space fountain-js's `\s` does (no-break spaces too), in linear time.
    const words = line.trim();
    if (words === '') lines[index] = line.length <= SCRIPT_TRAILING_SPACE_KEPT ? line : '';
    else {
      const start = line.length - line.trimStart().length;
      const end = start + words.length;
      lines[index] =
        line.slice(Math.max(0, start - SCRIPT_LEADING_SPACE_KEPT), start) +
        words +
        line.slice(end, end + SCRIPT_TRAILING_SPACE_KEPT);
    }
  }
  return lines.join('\n');
}
