import { CardShell, Chips, ImagePreview, type CardProps } from './parts.js';
import { recordOf, num, text } from '../model/values.js';

/** pano360ViewerNode: the panorama, where the front is, and the field of view. */
export function Pano360ViewerNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const yaw = num(data.frontYawDeg);
  const fov = num(data.fovDeg);
  return (
    <CardShell card={card}>
      <ImagePreview
        url={text(data.previewImageUrl) ?? text(data.imageUrl)}
        alt={text(data.displayName) ?? '360° panorama'}
      />
      <Chips
        items={[
          yaw !== undefined ? `front ${yaw}°` : undefined,
          fov !== undefined ? `FOV ${fov}°` : undefined,
          text(data.sourceNodeId) ? `from ${text(data.sourceNodeId)}` : undefined,
        ]}
      />
    </CardShell>
  );
}
