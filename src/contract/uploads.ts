import { z } from 'zod';

/**
 * Uploads (docs/storyboards.md, "Uploads"): a person's or an agent's own pictures, films, sound and PDFs.
 * POST /api/v2/projects/{project_id}/canvases/{canvas_id}/uploads takes multipart/form-data with one or more `file`
 * parts and answers one UploadedFile per file, in order, with the node that shows it (`node_type` and `node_data`,
 * ready for create_canvas_node or a REST node write). What a file is comes from its bytes, never its name.
 */

export const UploadMediaKind = z.enum(['image', 'video', 'audio', 'document']).meta({
  description: 'What the file is, decided from its bytes.',
});
export type UploadMediaKind = z.infer<typeof UploadMediaKind>;

/**
 * The files an upload may be, by the type found in their bytes: raster pictures, films, sound, PDF. SVG, HTML and
 * anything else a browser could run are refused, whatever the file is called (docs/security.md, "Uploads"). The
 * server's check and the page's file picker both read this table.
 */
export const UPLOAD_TYPES: Readonly<Record<string, UploadMediaKind>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'image/avif': 'image',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/webm': 'video',
  'video/x-matroska': 'video',
  'audio/mpeg': 'audio',
  'audio/wav': 'audio',
  'audio/ogg': 'audio',
  'audio/opus': 'audio',
  'audio/aac': 'audio',
  'audio/flac': 'audio',
  'audio/mp4': 'audio',
  'audio/x-m4a': 'audio',
  'application/pdf': 'document',
};

/** What uploads take, in words (an error names it next to what was found; the page says it too). */
export const UPLOAD_TYPES_IN_WORDS =
  'PNG, JPEG, WebP, GIF or AVIF pictures, MP4, MOV, WebM or MKV films, MP3, WAV, OGG, Opus, AAC, FLAC or M4A sound, and PDF';

/** The node type an upload becomes: a film a videoNode, a sound an audioNode, a picture or a PDF an uploadNode. */
export const UploadNodeType = z.enum(['uploadNode', 'videoNode', 'audioNode']);

export const UploadedFile = z
  .strictObject({
    asset_id: z.string(),
    file_name: z.string().meta({ description: 'The name the file was sent under (shown; never trusted).' }),
    media_kind: UploadMediaKind,
    mime_type: z.string().meta({ description: 'The type found in the bytes, e.g. image/jpeg.' }),
    byte_size: z.int().min(0).meta({ description: 'Size as kept (a picture is re-encoded without its EXIF).' }),
    url: z.string().meta({ description: 'The asset path, /assets/<asset_id>; canvas reads hand it out signed.' }),
    thumbnail_url: z
      .string()
      .nullable()
      .meta({ description: "A small picture of it (a picture's thumbnail, a film's poster), or null." }),
    width: z.int().min(1).nullable(),
    height: z.int().min(1).nullable(),
    duration_ms: z.int().min(0).nullable().meta({ description: 'Length of a film or a sound.' }),
    aspect_ratio: z.string().nullable().meta({ description: 'Width:height in lowest terms, e.g. 16:9.' }),
    node_type: UploadNodeType,
    node_data: z.record(z.string(), z.unknown()).meta({ description: 'The data of the node that shows this file.' }),
  })
  .meta({ id: 'UploadedFile' });
export type UploadedFile = z.infer<typeof UploadedFile>;

export const UploadReceipt = z.strictObject({ uploads: z.array(UploadedFile) }).meta({ id: 'UploadReceipt' });
export type UploadReceipt = z.infer<typeof UploadReceipt>;

/** The request body, multipart/form-data: one `file` part per file, in the order the answer keeps. */
export const UploadForm = z
  .object({
    file: z
      .array(z.string().meta({ format: 'binary' }))
      .min(1)
      .meta({ description: 'One part per file; its filename is kept as file_name.' }),
  })
  .meta({ id: 'UploadForm' });

/**
 * A direct upload (docs/storyboards.md, "Uploads"): with the S3 asset store, a large file goes straight to the bucket
 * by a presigned PUT, then the server takes it from there through the same checks every upload meets.
 */
export const DirectUploadBody = z
  .strictObject({
    file_name: z.string().min(1).max(1000).meta({ description: 'The name it is sent under (shown; never trusted).' }),
    byte_size: z.int().min(1).meta({ description: 'Its exact size: the presigned PUT takes that many bytes only.' }),
  })
  .meta({ id: 'DirectUploadBody' });
export type DirectUploadBody = z.infer<typeof DirectUploadBody>;

export const DirectUploadTicket = z
  .strictObject({
    upload_token: z.string().meta({ description: 'Hand it to …/uploads/direct/complete once the PUT succeeded.' }),
    method: z.literal('PUT'),
    url: z.string().meta({ description: 'The presigned URL of the bucket: PUT the bytes there, with these headers.' }),
    headers: z.record(z.string(), z.string()),
    expires_at: z.string().meta({ description: 'The URL works until then; the token a little longer.' }),
  })
  .meta({ id: 'DirectUploadTicket' });
export type DirectUploadTicket = z.infer<typeof DirectUploadTicket>;

export const DirectUploadComplete = z
  .strictObject({ upload_token: z.string().min(1).max(4000) })
  .meta({ id: 'DirectUploadComplete' });
export type DirectUploadComplete = z.infer<typeof DirectUploadComplete>;
