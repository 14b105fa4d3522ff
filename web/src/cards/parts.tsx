import { Handle, NodeResizer, Position, useStore, type NodeProps } from '@xyflow/react';
import {
  Component,
  Fragment,
  useEffect,
  useRef,
  useState,
  type ErrorInfo,
  type ReactElement,
  type ReactNode,
} from 'react';
import { dataOf, type NodeRuntimeState, type RunOutput } from '../../../src/contract/index.js';
import { useCanvas, useCanvasState, useEditable, useMediaOrigin } from '../ui/canvas-context.js';
import type { FlowNode } from './card-data.js';
import { patchData, updateNode } from '../model/intents.js';
import { typeLabel } from '../model/palette.js';
import { RunControls, RunStatusBadge } from './run-controls.js';
import { safeMediaUrl, safeThumbnailUrl } from './media-url.js';
import { FilmMarks, ThreadBadge } from './review-marks.js';
import { onTransportKey } from '../model/transport-keys.js';
import { recordOf, overviewTitle, text, titleOf, type Data } from '../model/values.js';

/** The pieces every node card is made of: the frame, in-place text editing, media and results. */

export type CardProps = NodeProps<FlowNode>;

/**
 * Below this zoom a card shows its title large, its thumbnail and its run state, nothing else (docs/ui.md, "Readable at
 * any zoom"). Above it the full card is drawn, its title sized by the zoom so it stays readable on screen.
 */
export const OVERVIEW_ZOOM = 0.45;

/** A card that throws while rendering shows what it is instead of taking the page down. */
export class CardBoundary extends Component<{ id: string; type: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`node ${this.props.id} could not be shown`, error, info.componentStack);
  }
  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="card card-broken" data-node-id={this.props.id}>
        <div className="card-head">
          <span className="card-type">{typeLabel(this.props.type)}</span>
          <span className="card-title">{this.props.id}</span>
        </div>
        <div className="card-body muted">This node's data could not be shown. Its details are in the side panel.</div>
      </div>
    );
  }
}

interface ShellProps {
  card: CardProps;
  children?: ReactNode;
  /** Width the card grows to when the node has none of its own. */
  className?: string;
  runnable?: boolean;
  resizable?: boolean;
}

/** The frame of a card: header (type, title, who just changed it), connection handles, resizing and the run bar. */
export function CardShell({ card, children, className, runnable, resizable = true }: ShellProps) {
  const { node, state, highlight } = card.data;
  const data = recordOf(node.data);
  const editable = useEditable();
  const { controller } = useCanvas();
  // Zoomed far out, a card is its title and run state: a thousand full cards would make panning stutter, and their
  // text is too small to read anyway. Only crossing the threshold re-renders a card.
  const overview = useStore((flow) => flow.transform[2] < OVERVIEW_ZOOM);
  const shot = useShotNumber(node.id, node.parentId, overview);
  const classes = `card card-${node.type}${highlight ? ' card-highlight' : ''}${card.selected ? ' card-selected' : ''} ${className ?? ''}`;
  if (overview) {
    return (
      <div className={`${classes} card-overview`} data-node-id={node.id} data-node-type={node.type}>
        <Handle type="target" position={Position.Left} isConnectable={false} />
        <div className="card-head">
          {shot !== null ? <span className="shot-badge">{shot}</span> : null}
          <span className="card-type">{typeLabel(node.type)}</span>
          <span className="card-title">{overviewTitle(node.type, data, node.id)}</span>
          <ThreadBadge nodeId={node.id} />
        </div>
        <OverviewThumbnail url={imageUrlOf(data) ?? shownOutputs(data, state, 'image').ready[0]} />
        {runnable && state ? (
          <div className="run-bar">
            <RunStatusBadge state={state} />
          </div>
        ) : null}
        <Handle type="source" position={Position.Right} isConnectable={false} />
      </div>
    );
  }
  return (
    <div className={classes} data-node-id={node.id} data-node-type={node.type}>
      {resizable && editable ? (
        <NodeResizer
          isVisible={card.selected}
          minWidth={160}
          minHeight={80}
          onResizeEnd={(_event, size) => {
            const authors = () => controller.store.getState().lastAuthor;
            const set = {
              width: Math.round(size.width),
              height: Math.round(size.height),
              position: { x: Math.round(size.x), y: Math.round(size.y) },
            };
            void controller.submit(updateNode(node.id, set, 'Resize', authors));
          }}
        />
      ) : null}
      <Handle type="target" position={Position.Left} isConnectable={editable} />
      <div className="card-head">
        {shot !== null ? <span className="shot-badge">{shot}</span> : null}
        <span className="card-type">{typeLabel(node.type)}</span>
        <span className="card-title" title={titleOf(node.type, data, node.id)}>
          {titleOf(node.type, data, node.id)}
        </span>
        <ThreadBadge nodeId={node.id} />
      </div>
      {highlight ? <div className="card-author">{highlight}</div> : null}
      <div className="card-body">{children}</div>
      {runnable ? <RunControls nodeId={node.id} state={state} /> : null}
      <Handle type="source" position={Position.Right} isConnectable={editable} />
    </div>
  );
}

/**
 * A card's shot number in a storyboard group (zoomed out, storyboard groups show their shots' numbers; the
 * spec's `storyboardShowIndex` asks for them at every zoom): its place among the group's cards, read row by row.
 * Selected as a number, so a card renders again only when its own number changes.
 */
function useShotNumber(nodeId: string, parentId: string | undefined, overview: boolean): number | null {
  return useCanvasState((state) => {
    if (parentId === undefined) return null;
    const group = state.layout.nodes.find((candidate) => candidate.id === parentId);
    const groupData = dataOf(group, 'groupNode');
    if (!groupData?.storyboardGroup || (!overview && !groupData.storyboardShowIndex)) return null;
    const siblings = state.layout.nodes
      .filter((candidate) => candidate.parentId === parentId)
      .sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
    return siblings.findIndex((candidate) => candidate.id === nodeId) + 1 || null;
  });
}

/** The picture a zoomed-out card shows under its title, when it has one. */
function OverviewThumbnail({ url }: { url: string | undefined }) {
  const safe = safeThumbnailUrl(url, useMediaOrigin());
  return safe ? <img className="card-overview-thumb" src={safe} alt="" loading="lazy" /> : null;
}

/**
 * Text edited in place: a click opens it (for editors), Enter with Ctrl/⌘ or leaving the field saves, Escape
 * cancels. What the person typed stays in the field until the save is done; a failed save keeps it in the notice.
 */
export function EditableText({
  value,
  onSave,
  placeholder,
  multiline = true,
  label,
  className,
}: {
  value: string;
  onSave: (next: string) => void;
  placeholder: string;
  multiline?: boolean;
  label: string;
  className?: string;
}) {
  const editable = useEditable();
  const [draft, setDraft] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const editing = draft !== null;
  useEffect(() => {
    if (editing) field.current?.focus();
  }, [editing]);
  // The card can go away mid-edit (someone deleted the node): what was typed is still sent, so the person is told
  // it could not be applied and gets the text back, instead of losing it with the card.
  const unsaved = useRef<{ draft: string | null; value: string; onSave: (next: string) => void }>({
    draft,
    value,
    onSave,
  });
  unsaved.current = { draft, value, onSave };
  useEffect(
    () => () => {
      const { draft: left, value: saved, onSave: save } = unsaved.current;
      if (left !== null && left !== saved) save(left);
    },
    [],
  );

  if (draft === null) {
    return (
      <div
        className={`editable ${className ?? ''}${value ? '' : ' muted'}${editable ? ' can-edit' : ''}`}
        role={editable ? 'button' : undefined}
        tabIndex={editable ? 0 : undefined}
        // The button's name is what it does and then what it shows, so a voice user can say the words they see.
        aria-label={editable ? `Edit ${label}: ${value || placeholder}` : undefined}
        onClick={editable ? () => setDraft(value) : undefined}
        onKeyDown={
          editable
            ? (event) => {
                if (event.key !== 'Enter') return;
                // The field takes the focus in this same keypress: without this, the Enter that opened it would also
                // be typed into it, as a newline at the front of the text.
                event.preventDefault();
                setDraft(value);
              }
            : undefined
        }
      >
        {value || placeholder}
      </div>
    );
  }
  const finish = (save: boolean) => {
    unsaved.current = { ...unsaved.current, draft: null };
    if (save && draft !== value) onSave(draft);
    setDraft(null);
  };
  const common = {
    ref: field,
    className: `nodrag nowheel editable-field ${className ?? ''}`,
    'aria-label': label,
    value: draft,
    placeholder,
    onChange: (event: { target: { value: string } }) => setDraft(event.target.value),
    onBlur: () => finish(true),
    onKeyDown: (event: React.KeyboardEvent) => {
      if (event.key === 'Escape') finish(false);
      else if (event.key === 'Enter' && (event.metaKey || event.ctrlKey || !multiline)) finish(true);
      event.stopPropagation();
    },
  };
  return multiline ? <textarea rows={4} {...common} /> : <input {...common} />;
}

/** Saves one data field of a node: the rest of its data is taken as it is when the save is sent (see patchData). */
export function useSaveField(nodeId: string) {
  const { controller } = useCanvas();
  return (field: string, value: unknown, label: string, keep?: string) => {
    const authors = () => controller.store.getState().lastAuthor;
    void controller.submit(patchData(nodeId, { [field]: value }, label, authors, keep));
  };
}

/** The prompt of a generating node, edited in place. */
export function PromptEditor({ card, placeholder }: { card: CardProps; placeholder: string }) {
  const save = useSaveField(card.data.node.id);
  const prompt = text(recordOf(card.data.node.data).prompt) ?? '';
  return (
    <EditableText
      className="prompt"
      label="prompt"
      value={prompt}
      placeholder={placeholder}
      onSave={(next) => save('prompt', next, 'Edit prompt', next)}
    />
  );
}

export function Field({ name, children }: { name: string; children: ReactNode }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <div className="field">
      <span className="field-name">{name}</span>
      <span className="field-value">{children}</span>
    </div>
  );
}

export function Chips({ items }: { items: Array<string | undefined | false> }) {
  const shown = items.filter((item): item is string => typeof item === 'string' && item !== '');
  if (shown.length === 0) return null;
  return (
    <div className="chips">
      {shown.map((item) => (
        <span key={item} className="chip">
          {item}
        </span>
      ))}
    </div>
  );
}

/** Outputs of the latest run by kind, ready ones first; pending resources as placeholders. */
export function runOutputs(state: NodeRuntimeState | undefined, kind: string): { ready: string[]; pending: number } {
  if (!state) return { ready: [], pending: 0 };
  const ready = state.outputs.filter((output) => output.kind === kind).map((output) => output.url);
  const pending = state.resources.filter((resource) => resource.kind === kind && resource.status === 'pending').length;
  return { ready, pending };
}

/**
 * What a card shows: the latest run's outputs, unless a person or agent picked an earlier version, whose
 * result the node's data names (`externalRunId`, and the type's result field); a run in progress shows as before.
 */
export function shownOutputs(
  data: Data,
  state: NodeRuntimeState | undefined,
  kind: 'image' | 'audio',
): { ready: string[]; pending: number } {
  const latest = runOutputs(state, kind);
  const picked = text(data.externalRunId);
  const pickedUrl = kind === 'image' ? text(data.committed_slot_url) : text(data.audioUrl);
  if (picked && pickedUrl && state && picked !== state.externalRunId && latest.pending === 0)
    return { ready: [pickedUrl], pending: 0 };
  return latest;
}

/** The images of a version being looked at on the card (src/cards/card-versions.tsx). */
export function browsedImages(outputs: readonly RunOutput[]): { ready: string[]; pending: number } {
  return { ready: outputs.filter((output) => output.kind === 'image').map((output) => output.url), pending: 0 };
}

export function ImageResults({
  urls,
  pending,
  alt,
  around,
}: {
  urls: string[];
  pending: number;
  alt: string;
  /** Wraps the picture of one result (by its URL as stored), e.g. with the pins of comments on it. */
  around?: (url: string, image: ReactElement) => ReactNode;
}) {
  const origin = useMediaOrigin();
  const shown = urls.flatMap((url) => {
    const safe = safeThumbnailUrl(url, origin);
    return safe === undefined ? [] : [{ url, safe }];
  });
  if (shown.length === 0 && pending === 0) return null;
  return (
    <div className={`thumbs thumbs-${Math.min(shown.length + pending, 4)}`}>
      {shown.map(({ url, safe }) => {
        const image = <img src={safe} alt={alt} loading="lazy" className="thumb" />;
        return <Fragment key={safe}>{around ? around(url, image) : image}</Fragment>;
      })}
      {Array.from({ length: pending }, (_, index) => (
        <div key={`pending-${index}`} className="thumb thumb-pending" role="img" aria-label="image pending">
          <span className="spinner" />
        </div>
      ))}
    </div>
  );
}

export function imageUrlOf(data: Data): string | undefined {
  return text(data.imageUrl) ?? text(data.previewImageUrl) ?? text(data.committed_slot_url);
}

/**
 * A card's own picture, where a comment's pin goes: its image (an uploaded picture's file), else the first of its
 * latest run's results.
 */
export function pictureOfCard(data: Data, state: NodeRuntimeState | undefined): string | undefined {
  return imageUrlOf(data) ?? uploadedPicture(data) ?? shownOutputs(data, state, 'image').ready[0];
}

/** An uploaded file that is a picture. */
export function uploadedPicture(data: Data): string | undefined {
  const kind = text(data.mediaKind) ?? text(data.mimeType)?.split('/')[0];
  return kind === 'image' ? text(data.fileUrl) : undefined;
}

/** Said in place of media a card will not fetch: it is not on this server (src/cards/media-url.ts). */
function NotShown({ what }: { what: string }) {
  return <div className="media-empty">{what} not shown: it is not on this server</div>;
}

export function ImagePreview({ url, alt }: { url: string | undefined; alt: string }) {
  const safe = safeThumbnailUrl(url, useMediaOrigin());
  if (!url) return <div className="media-empty">No image yet</div>;
  if (!safe) return <NotShown what="Image" />;
  return <img src={safe} alt={alt} loading="lazy" className="preview" />;
}

export function AudioPlayer({ url }: { url: string | undefined }) {
  const safe = safeMediaUrl(url, useMediaOrigin());
  if (!url) return null;
  if (!safe) return <NotShown what="Audio" />;
  return <audio className="nodrag media-audio" controls preload="metadata" src={safe} />;
}

/** A card's film; with `nodeId`, the film's comment threads as marks along it (FilmMarks). */
export function VideoPlayer({
  url,
  poster,
  nodeId,
}: {
  url: string | undefined;
  poster?: string | undefined;
  nodeId?: string;
}) {
  const origin = useMediaOrigin();
  const safe = safeMediaUrl(url, origin);
  const player = useRef<HTMLVideoElement>(null);
  const [duration, setDuration] = useState(0);
  if (!url) return null;
  if (!safe) return <NotShown what="Video" />;
  const video = (
    <video
      ref={player}
      className="nodrag media-video"
      controls
      preload="metadata"
      src={safe}
      poster={safeMediaUrl(poster, origin)}
      onLoadedMetadata={(event) =>
        setDuration(Number.isFinite(event.currentTarget.duration) ? event.currentTarget.duration : 0)
      }
      onKeyDown={(event) => onTransportKey(event)}
    />
  );
  if (nodeId === undefined) return video;
  return (
    <div className="film">
      {video}
      <FilmMarks
        nodeId={nodeId}
        duration={duration}
        seek={(seconds) => {
          if (!player.current) return;
          player.current.pause();
          player.current.currentTime = seconds;
        }}
      />
    </div>
  );
}

/** A link to a run's file (JSON, 3D model), only to this server's own files. */
export function FileLink({ url, children, download }: { url: string; children: ReactNode; download?: boolean }) {
  const safe = safeMediaUrl(url, useMediaOrigin());
  if (!safe) return null;
  return download ? (
    <a className="download nodrag" href={safe} download>
      {children}
    </a>
  ) : (
    <a className="download nodrag" href={safe} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

export function ErrorLine({ message }: { message: string | undefined | null }) {
  if (!message) return null;
  return <div className="error-line">{message}</div>;
}

export type { Data };
