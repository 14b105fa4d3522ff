/** Text measures shared by the contract's string rules. */

/** Length in Unicode code points: what JSON Schema's minLength/maxLength and a `u`-flag quantifier count. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}
