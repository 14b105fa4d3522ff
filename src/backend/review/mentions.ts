import type { Person } from '../../contract/index.js';

/**
 * Mentions in a comment (docs/review.md, "Mentions"): `@` then a member's subject as written (subjects can hold `@`
 * and dots, so members are matched by their whole subject, the longest first, not by a pattern), and `@assistant`
 * for the canvas chat's assistant. Matching ignores case; a mention must end where a word would.
 */

export const ASSISTANT_MENTION = 'assistant';

export interface Mentions {
  people: Person[];
  assistant: boolean;
}

function mentioned(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  const needle = `@${name.toLowerCase()}`;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
    const before = at === 0 ? ' ' : lower[at - 1]!;
    const after = lower[at + needle.length] ?? ' ';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_@-]/u.test(after)) return true;
  }
  return false;
}

export function findMentions(text: string, members: readonly Person[]): Mentions {
  const bySubjectLength = [...members].sort((a, b) => b.subject.length - a.subject.length);
  const people: Person[] = [];
  for (const member of bySubjectLength) {
    if (people.some((found) => found.subject === member.subject && found.issuer === member.issuer)) continue;
    if (mentioned(text, member.subject)) people.push(member);
  }
  return { people, assistant: mentioned(text, ASSISTANT_MENTION) };
}
