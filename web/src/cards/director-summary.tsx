import { recordOf, list, text } from '../model/values.js';

/** What a director control bundle on an image node holds, in one line: its frame source and who is staged. */
export function DirectorSummary({ bundle }: { bundle: unknown }) {
  if (bundle === undefined || bundle === null) return null;
  const data = recordOf(bundle);
  const source = recordOf(data.source);
  const meta = recordOf(data.frame_meta);
  const layer = recordOf(meta.layer);
  const count = (key: string) => Math.max(list(meta[key]).length, list(layer[key]).length);
  const sourceName = text(source.label) ?? text(source.source_id);
  const parts = [
    sourceName
      ? `${sourceName}${text(source.source_type) ? ` (${text(source.source_type)}, ${text(source.source_kind) ?? '?'})` : ''}`
      : undefined,
    `${count('actors')} actors`,
    `${count('props')} props`,
    `${count('stagings')} stagings`,
  ].filter(Boolean);
  return (
    <div className="director" title={text(data.dir)}>
      <span className="director-label">Director</span> {parts.join(' · ')}
    </div>
  );
}
