import { AudioPlayer, CardShell, Chips, ErrorLine, ImagePreview, VideoPlayer, type CardProps } from './parts.js';
import { dataOf, num, text } from './values.js';

/** uploadNode: the uploaded file, previewed by what kind it is. */
export function UploadNodeCard(card: CardProps) {
  const data = dataOf(card.data.node.data);
  const url = text(data.fileUrl);
  const kind = text(data.mediaKind) ?? text(data.mimeType)?.split('/')[0] ?? undefined;
  const size = num(data.sizeBytes);
  return (
    <CardShell card={card}>
      {kind === 'video' ? <VideoPlayer url={url} poster={text(data.previewImageUrl)} /> : null}
      {kind === 'audio' ? <AudioPlayer url={url} /> : null}
      {kind === 'image' || kind === undefined ? (
        <ImagePreview
          url={text(data.previewImageUrl) ?? (kind === 'image' ? url : undefined)}
          alt={text(data.fileName) ?? 'upload'}
        />
      ) : null}
      {!url ? <div className="muted">{data.isUploading === true ? 'Uploading…' : 'No file yet'}</div> : null}
      <Chips
        items={[
          text(data.fileName),
          kind,
          size !== undefined ? `${Math.max(1, Math.round(size / 1024))} KB` : undefined,
        ]}
      />
      <ErrorLine message={text(data.uploadError)} />
    </CardShell>
  );
}
