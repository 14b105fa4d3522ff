/**
 * A number of bytes as people read it, in binary units (a limit of 10 GiB is shown as 10 GiB, not 10.7 GB): "512 KiB",
 * "9.8 GiB". Whole values lose their ".0". The server's refusals and the team page say sizes the same way.
 */

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

export function bytesInWords(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  // Rounded down: a project 9.99 GiB into a 10 GiB quota reads as 9.9 GiB, never as full.
  const shown = value >= 100 ? Math.floor(value).toString() : (Math.floor(value * 10) / 10).toFixed(1);
  return `${shown.replace(/\.0$/, '')} ${UNITS[unit]}`;
}
