import { z } from 'zod';

/**
 * A person, as every shape names one: the issuer that vouches for them and their subject there. Two people may share
 * a subject under different issuers, so a comparison takes both (samePerson), everywhere, the web canvas included.
 */
export const Person = z.strictObject({ issuer: z.string(), subject: z.string() });
export type Person = z.infer<typeof Person>;

/** True when both name the same person (issuer and subject); false when either is missing. */
export function samePerson(left: Person | null | undefined, right: Person | null | undefined): boolean {
  return !!left && !!right && left.issuer === right.issuer && left.subject === right.subject;
}

/** One string per person, for maps and the audit log's targets. */
export const personKey = (person: Person): string => `${person.issuer}|${person.subject}`;
