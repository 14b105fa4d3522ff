/**
 * A person as every screen shows them beside their name (docs/ui.md, "Names"): the picture they chose, or their
 * initials on their colour. Decorative: the name beside it is what a screen reader reads.
 */
export function Avatar({
  name,
  picture,
  color,
  size = 24,
}: {
  name: string;
  picture?: string | null | undefined;
  color?: string | undefined;
  size?: number;
}) {
  // A person's own colour (presence) is a strong one that takes white initials; without one, the accent and the ink
  // that reads on it in either scheme.
  const style = {
    width: size,
    height: size,
    ['--avatar-color' as string]: color ?? 'var(--accent)',
    ['--avatar-ink' as string]: color ? '#fff' : 'var(--on-accent)',
  };
  if (picture) return <img className="avatar" src={picture} alt="" width={size} height={size} style={style} />;
  return (
    <span className="avatar avatar-initials" aria-hidden="true" style={{ ...style, fontSize: Math.round(size * 0.42) }}>
      {initialsOf(name)}
    </span>
  );
}

/** The first letters of the first two words (Olga Ivanova → OI; demo-owner → DO). */
export function initialsOf(name: string): string {
  const words = name.split(/[\s._-]+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((word) => [...word][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}
