/**
 * Shot numbers (docs/storyboards.md, "Numbers"): display labels, apart from the shots' stable ids. A board's numbers
 * follow its order (1, 2, 3) unless they are locked: then every numbered shot keeps its number and a shot without
 * one (inserted, or moved: a move clears its number) takes the one before it with the next free letter (2A, 2B; 2AA
 * after 2Z). Renumbering gives 1, 2, 3 again. The web canvas and the assistant number a board this way on every change
 * of its order.
 */

export interface Numbered {
  number?: string | undefined;
  [field: string]: unknown;
}

/** The shots with their numbers as the board shows them. */
export function numberShots<T extends Numbered>(shots: readonly T[], locked: boolean): T[] {
  if (!locked) return shots.map((shot, index) => ({ ...shot, number: String(index + 1) }));
  const used = new Set(shots.flatMap((shot) => (shot.number ? [shot.number] : [])));
  let previous = '0';
  return shots.map((shot) => {
    if (shot.number) {
      previous = shot.number;
      return shot;
    }
    const number = nextFree(previous, used);
    used.add(number);
    previous = number;
    return { ...shot, number };
  });
}

/** The first of 2A, 2B, … 2Z, 2AA, … not in use, after `previous` (its letters continued: after 2B comes 2C). */
function nextFree(previous: string, used: ReadonlySet<string>): string {
  const [, digits = '0', letters = ''] = /^([0-9]*)([A-Z]*)$/.exec(previous) ?? [];
  for (let index = lettersIndex(letters) + 1; index < 26 + 26 * 26; index += 1) {
    const candidate = `${digits}${lettersOf(index)}`;
    if (!used.has(candidate)) return candidate;
  }
  return `${digits}ZZ`;
}

/** '' → 0, A → 1, … Z → 26, AA → 27, … ZZ → 702. */
function lettersIndex(letters: string): number {
  return [...letters].reduce((sum, letter) => sum * 26 + (letter.charCodeAt(0) - 64), 0);
}

function lettersOf(index: number): string {
  return index <= 26
    ? String.fromCharCode(64 + index)
    : String.fromCharCode(64 + Math.floor((index - 1) / 26)) + String.fromCharCode(65 + ((index - 1) % 26));
}
