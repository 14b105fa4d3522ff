import {
  AudioPlayer,
  CardShell,
  Chips,
  ErrorLine,
  FileLink,
  ImagePreview,
  pictureOfCard,
  VideoPlayer,
  type CardProps,
} from './parts.js';
import { pinsOnPicture } from './review-marks.js';
import { recordOf, num, text } from '../model/values.js';

/** uploadNode: the uploaded file, previewed by what kind it is. */
export function UploadNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const url = text(data.fileUrl);
  const kind = text(data.mediaKind) ?? text(data.mimeType)?.split('/')[0] ?? undefined;
  const size = num(data.sizeBytes);
  const picture = text(data.previewImageUrl) ?? (kind === 'image' ? url : undefined);
  const pinned = pinsOnPicture(card.data.node.id, pictureOfCard(data, card.data.state));
  return (
    <CardShell card={card}>
      {kind === 'video' ? <VideoPlayer url={url} poster={text(data.previewImageUrl)} /> : null}
      {kind === 'audio' ? <AudioPlayer url={url} /> : null}
      {kind === 'image' || kind === undefined
        ? pinned(picture, <ImagePreview url={picture} alt={text(data.fileName) ?? 'upload'} />)
        : null}
      {kind === 'document' && url ? (
        <FileLink url={url} download>
          Download {text(data.fileName) ?? 'the file'}
        </FileLink>
      ) : null}
      {!url ? <div className="muted">{data.isUploading === true ? 'Uploading…' : 'No file yet'}</div> : null}
      <Chips items={[text(data.fileName), kind, size !== undefined ? sizeInWords(size) : undefined]} />
      <ErrorLine message={text(data.uploadError)} />
    </CardShell>
  );
}

/** 12 KB, 3.4 MB, 1.2 GB. */
function sizeInWords(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}
