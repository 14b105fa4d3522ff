import type { Screenplay } from '../../../src/contract/index.js';
import { CardShell, Chips, ErrorLine, PromptEditor, type CardProps } from './parts.js';
import { recordOf, preview, text } from '../model/values.js';

/** scriptNode: the prompt, and the script it produced or was imported from (its scenes, or a readable excerpt). */
export function ScriptNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const screenplay = asScreenplay(data.scriptResult);
  const result = screenplay ? null : preview(data.scriptResult, 400);
  return (
    <CardShell card={card} runnable={!screenplay} className="card-wide">
      {screenplay ? null : <PromptEditor card={card} placeholder="What should the script be about…" />}
      {text(data.scriptTitle) ? <div className="script-title">{text(data.scriptTitle)}</div> : null}
      {screenplay ? (
        <>
          <ol className="script-scenes">
            {screenplay.scenes.slice(0, 12).map((scene) => (
              <li key={scene.id}>{scene.heading}</li>
            ))}
          </ol>
          {screenplay.scenes.length > 12 ? (
            <div className="muted">and {screenplay.scenes.length - 12} more scenes</div>
          ) : null}
          <Chips
            items={[
              `${screenplay.scenes.length} scenes`,
              screenplay.characters.slice(0, 6).join(', ') || undefined,
              `${screenplay.fileName}${screenplay.imports > 1 ? ` (import ${screenplay.imports})` : ''}`,
            ]}
          />
        </>
      ) : result ? (
        <pre className="script-text nowheel" tabIndex={0} aria-label="The script">
          {result}
        </pre>
      ) : (
        <div className="media-empty">No script yet</div>
      )}
      {screenplay ? null : <Chips items={[text(data.model), text(data.lastAction)]} />}
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}

/** An imported screenplay (src/contract/screenplay.ts), told apart from a generator's free-form result. */
function asScreenplay(value: unknown): Screenplay | null {
  const candidate = value as Partial<Screenplay> | null;
  return candidate?.format === 'canvas-mcp.screenplay.v1' && Array.isArray(candidate.scenes)
    ? (candidate as Screenplay)
    : null;
}
