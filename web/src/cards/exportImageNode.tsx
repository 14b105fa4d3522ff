import { DirectorSummary } from './director-summary.js';
import { CardShell, Chips, ImagePreview, imageUrlOf, type CardProps } from './parts.js';
import { recordOf, text } from '../model/values.js';

/** exportImageNode: the exported picture and what kind of export it is. */
export function ExportImageNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  return (
    <CardShell card={card}>
      <ImagePreview url={imageUrlOf(data)} alt={text(data.displayName) ?? 'export'} />
      <Chips
        items={[
          text(data.resultKind)
            ?.replace(/([A-Z])/g, ' $1')
            .toLowerCase(),
          text(data.aspectRatio),
          text(data.deliveryOriginalState),
        ]}
      />
      <DirectorSummary bundle={data.director_control_bundle} />
    </CardShell>
  );
}
