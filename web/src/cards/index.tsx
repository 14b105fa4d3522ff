import { memo, type ComponentType } from 'react';
import type { NodeTypes } from '@xyflow/react';
import type { NodeType } from '../../../src/contract/index.js';
import { AudioNodeCard } from './audioNode.js';
import { AudioTrimNodeCard } from './audioTrimNode.js';
import { BeatContextNodeCard } from './beatContextNode.js';
import { ExportImageNodeCard } from './exportImageNode.js';
import { FloorPlanNodeCard } from './floorPlanNode.js';
import { GroupNodeCard } from './groupNode.js';
import { ImageGenNodeCard } from './imageGenNode.js';
import { ImageNodeCard } from './imageNode.js';
import { Pano360ViewerNodeCard } from './pano360ViewerNode.js';
import { CardBoundary, CardShell, type CardProps } from './parts.js';
import { ScriptNodeCard } from './scriptNode.js';
import { SkillNodeCard } from './skillNode.js';
import { StoryboardGenNodeCard } from './storyboardGenNode.js';
import { StoryboardNodeCard } from './storyboardNode.js';
import { TextAnnotationNodeCard } from './textAnnotationNode.js';
import { ThreeDWorldNodeCard } from './threeDWorldNode.js';
import { UploadNodeCard } from './uploadNode.js';
import { VideoComposeNodeCard } from './videoComposeNode.js';
import { VideoNodeCard } from './videoNode.js';
import { VideoStoryNodeCard } from './videoStoryNode.js';

/** One card per node type, registered once (React Flow's nodeTypes must not change between renders). */
export const CARDS: Record<NodeType, ComponentType<CardProps>> = {
  uploadNode: UploadNodeCard,
  imageNode: ImageNodeCard,
  imageGenNode: ImageGenNodeCard,
  exportImageNode: ExportImageNodeCard,
  beatContextNode: BeatContextNodeCard,
  textAnnotationNode: TextAnnotationNodeCard,
  groupNode: GroupNodeCard,
  storyboardNode: StoryboardNodeCard,
  storyboardGenNode: StoryboardGenNodeCard,
  videoNode: VideoNodeCard,
  audioNode: AudioNodeCard,
  audioTrimNode: AudioTrimNodeCard,
  videoStoryNode: VideoStoryNodeCard,
  videoComposeNode: VideoComposeNodeCard,
  scriptNode: ScriptNodeCard,
  pano360ViewerNode: Pano360ViewerNodeCard,
  threeDWorldNode: ThreeDWorldNodeCard,
  skillNode: SkillNodeCard,
  floorPlanNode: FloorPlanNodeCard,
};

/** A node of a type this page does not know: its title and type, so it is never invisible. */
function UnknownNodeCard(card: CardProps) {
  return (
    <CardShell card={card}>
      <div className="muted">
        This page does not know the node type "{card.data.node.type}". Its data is in the side panel.
      </div>
    </CardShell>
  );
}

function guarded(type: string, Card: ComponentType<CardProps>): ComponentType<CardProps> {
  const Guarded = (props: CardProps) => (
    <CardBoundary id={props.id} type={type}>
      <Card {...props} />
    </CardBoundary>
  );
  Guarded.displayName = `Card(${type})`;
  return memo(Guarded);
}

/** React Flow's nodeTypes: every card behind an error boundary, memoized (a 1,000-node canvas re-renders only what changed). */
export const NODE_CARDS: NodeTypes = {
  ...Object.fromEntries(Object.entries(CARDS).map(([type, Card]) => [type, guarded(type, Card)])),
  unknown: guarded('unknown', UnknownNodeCard),
};
