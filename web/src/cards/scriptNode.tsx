import { CardShell, Chips, ErrorLine, PromptEditor, type CardProps } from './parts.js';
import { dataOf, preview, text } from './values.js';

/** scriptNode: the prompt, and the script it produced (its title and a readable excerpt). */
export function ScriptNodeCard(card: CardProps) {
  const data = dataOf(card.data.node.data);
  const result = preview(data.scriptResult, 400);
  return (
    <CardShell card={card} runnable className="card-wide">
      <PromptEditor card={card} placeholder="What should the script be about…" />
      {text(data.scriptTitle) ? <div className="script-title">{text(data.scriptTitle)}</div> : null}
      {result ? <pre className="script-text nowheel">{result}</pre> : <div className="media-empty">No script yet</div>}
      <Chips items={[text(data.model), text(data.lastAction)]} />
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
