/** A plain-text table for people: one header line, then one line per row, columns padded to their widest cell. */
export function formatTable(columns: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.toUpperCase())), ...rows.map(line)].join('\n');
}
