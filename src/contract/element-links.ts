/**
 * Which elements a text or a shot is linked to (docs/storyboards.md, "Elements"). One rule for the
 * server (what a run is given) and the page (what the shot list shows): a mention is `@` and an element's name, in any
 * case, not followed by a letter or digit; a shot is also linked to the elements its cast or location names.
 */

interface Named {
  name: string;
}

const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

/** The elements `text` mentions (`@Mara`, `@old tom`), in the order given; longer names first, so `@Old Tom` is not `@Old`. */
export function mentionedElements<E extends Named>(text: string, elements: readonly E[]): E[] {
  if (!text.includes('@') || elements.length === 0) return [];
  let rest = text.toLowerCase();
  const found = new Set<E>();
  for (const element of [...elements].sort((a, b) => b.name.length - a.name.length)) {
    const mention = `@${element.name.toLowerCase()}`;
    let at = rest.indexOf(mention);
    while (at >= 0) {
      const after = rest.charAt(at + mention.length);
      if (!after || !WORD_CHARACTER.test(after)) {
        found.add(element);
        rest = rest.slice(0, at) + ' '.repeat(mention.length) + rest.slice(at + mention.length);
      }
      at = rest.indexOf(mention, at + 1);
    }
  }
  return elements.filter((element) => found.has(element));
}

export interface ShotWords {
  cast?: readonly string[] | undefined;
  location?: string | undefined;
  caption?: string | null | undefined;
  action?: string | undefined;
  dialogue?: string | undefined;
  notes?: string | undefined;
}

/** The elements in a shot: named by its cast or location (the script's MARA is the element Mara), or mentioned in its words. */
export function shotElements<E extends Named>(shot: ShotWords, elements: readonly E[]): E[] {
  const names = new Set([...(shot.cast ?? []), shot.location ?? ''].map((name) => name.trim().toLowerCase()));
  const words = [shot.caption, shot.action, shot.dialogue, shot.notes].filter(Boolean).join('\n');
  const mentioned = new Set(mentionedElements(words, elements));
  return elements.filter((element) => names.has(element.name.toLowerCase()) || mentioned.has(element));
}
