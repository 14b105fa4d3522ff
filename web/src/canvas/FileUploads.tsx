import { useReactFlow } from '@xyflow/react';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { UPLOAD_TYPES, UPLOAD_TYPES_IN_WORDS } from '../../../src/contract/uploads.js';
import { createItems } from '../model/intents.js';
import { drawnBoxes, measuredSizes } from '../model/placement.js';
import { sendFiles, uploadedNodes } from '../model/uploads.js';
import { markFirstStep } from '../model/first-steps.js';
import { useCanvas, useCanvasState, useEditable } from '../ui/canvas-context.js';
import type { FlowNode } from '../cards/card-data.js';

/**
 * Files from the person's computer onto the canvas (docs/ui.md, "Your own files"): dropped on it, pasted, or picked
 * from the palette's "Upload files…". One request per gesture, its progress shown; once the server has kept them, their
 * cards are created in one revision where the files were dropped (or in the middle of the view). A refusal is said in a
 * notice naming the file and what it is, and nothing is created.
 */

interface Uploads {
  /** Uploads files and places their cards around `at` (canvas coordinates; the view's centre when left out). */
  upload(files: readonly File[], at?: { x: number; y: number }): void;
  /** Opens the file picker. */
  pick(): void;
}

const UploadsContext = createContext<Uploads | null>(null);

/** The page's uploads; null where there are none (the canvas inside an agent's chat, the MCP App, takes no files). */
export function useUploads(): Uploads | null {
  return useContext(UploadsContext);
}

const ACCEPT = Object.keys(UPLOAD_TYPES).join(',');

export function FileUploads({ children }: { children: ReactNode }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const flow = useReactFlow<FlowNode>();
  const picker = useRef<HTMLInputElement>(null);
  const [sending, setSending] = useState<{ count: number; fraction: number } | null>(null);

  const viewCentre = useCallback(() => {
    const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
    return pane
      ? flow.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 })
      : { x: 0, y: 0 };
  }, [flow]);

  const upload = useCallback(
    (files: readonly File[], at?: { x: number; y: number }) => {
      if (!editable || files.length === 0) return;
      const where = at ?? viewCentre();
      const count = files.length;
      setSending({ count, fraction: 0 });
      sendFiles(address, files, (fraction) => setSending({ count, fraction })).then(
        (receipt) => {
          setSending(null);
          const { layout } = controller.store.getState();
          const nodes = uploadedNodes(receipt, where, drawnBoxes(layout.nodes, measuredSizes(flow.getNodes())));
          void controller.submit(
            createItems(nodes, [], count === 1 ? `Upload ${receipt.uploads[0]!.file_name}` : `Upload ${count} files`),
          );
          markFirstStep('upload');
        },
        (error: Error) => {
          setSending(null);
          controller.notify('error', `Nothing was uploaded: ${error.message}`);
        },
      );
    },
    [address, controller, editable, flow, viewCentre],
  );

  const uploads = useMemo<Uploads>(() => ({ upload, pick: () => picker.current?.click() }), [upload]);

  return (
    <UploadsContext.Provider value={uploads}>
      {children}
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        accept={ACCEPT}
        aria-label={`Upload files: ${UPLOAD_TYPES_IN_WORDS}`}
        data-testid="upload-picker"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          upload(files);
        }}
      />
      {sending ? (
        <div className="upload-progress" role="status" aria-live="polite">
          Uploading {sending.count === 1 ? 'a file' : `${sending.count} files`}…{' '}
          <progress max={1} value={sending.fraction} aria-label="Upload progress" />{' '}
          {Math.round(sending.fraction * 100)} %
        </div>
      ) : null}
    </UploadsContext.Provider>
  );
}

/** The files a drag or a paste carries (none when it carries only text or cards). */
export function filesOf(data: DataTransfer | null): File[] {
  return data ? [...data.files] : [];
}
