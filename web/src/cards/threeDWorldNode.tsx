import {
  CardShell,
  Chips,
  ErrorLine,
  FileLink,
  ImagePreview,
  PromptEditor,
  runOutputs,
  type CardProps,
} from './parts.js';
import { recordOf, list, text } from '../model/values.js';

/** threeDWorldNode: its world sources (by type), the active one, and the generated world to download. */
export function ThreeDWorldNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const sources = list(data.sources).map(recordOf);
  const models = runOutputs(card.data.state, 'model');
  const kinds = [...new Set(sources.map((source) => text(source.source_type)).filter(Boolean))];
  return (
    <CardShell card={card} runnable>
      <ImagePreview url={text(data.previewImageUrl)} alt={text(data.displayName) ?? '3D world'} />
      <PromptEditor card={card} placeholder="Describe the world…" />
      <Chips
        items={[
          `${sources.length} sources`,
          ...kinds.map((kind) => kind as string),
          text(data.activeSourceId) ? `active: ${text(data.activeSourceId)}` : undefined,
        ]}
      />
      {models.ready.map((url) => (
        <FileLink key={url} url={url} download>
          Download the world (GLB)
        </FileLink>
      ))}
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
