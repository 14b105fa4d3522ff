/** Width:height in lowest terms (1920 × 1080 → 16:9); a ratio near a common one is named by it (2.39:1, 1.85:1). */
export function aspectRatioOf(width: number, height: number): string {
  const ratio = width / height;
  for (const [name, value] of NAMED) if (Math.abs(ratio - value) / value < 0.01) return name;
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

const NAMED: ReadonlyArray<[string, number]> = [
  ['16:9', 16 / 9],
  ['9:16', 9 / 16],
  ['4:3', 4 / 3],
  ['3:4', 3 / 4],
  ['1:1', 1],
  ['4:5', 4 / 5],
  ['3:2', 3 / 2],
  ['2:3', 2 / 3],
  ['1.85:1', 1.85],
  ['2.39:1', 2.39],
];

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
