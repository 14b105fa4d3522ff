import { ImportReport, type ImportReportText } from '../../ui/import-report.js';
import { Select } from '../../ui/select.js';
import { useRef, useState } from 'react';
import { FRAME_RATES, type FrameRate } from '../../../../src/contract/index.js';
import { api, ApiError } from '../../model/api.js';
import { conformSummary } from '../../model/conform-report.js';
import { useCanvas, useCanvasState } from '../../ui/canvas-context.js';

/**
 * Conform in the Exports tab (docs/deliverables.md, "Conform"): an editor's timeline (OTIO, FCP 7 XML, FCPXML or a
 * CMX 3600 EDL) chosen from the computer is sent to the conform route for the chosen board, at the revision the page
 * shows; the report says in words what changed (durations, order, shots dropped or back, shots added), a refusal its
 * reason. The board's new state comes back through the live feed like any write.
 */

type Report = ImportReportText;

export function ConformTimeline({ boardId, boardName }: { boardId: string; boardName: string }) {
  const { controller } = useCanvas();
  const address = useCanvasState((state) => state.address);
  const picker = useRef<HTMLInputElement>(null);
  const [rate, setRate] = useState<FrameRate | ''>('');
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);

  const conform = async (file: File) => {
    setBusy(true);
    setReport({ headline: `Conforming ${boardName} to ${file.name}…`, details: [] });
    try {
      const answer = await api.conform(address, {
        base_revision: controller.store.getState().layout.revision,
        node_id: boardId,
        file_name: file.name,
        text: await file.text(),
        ...(rate ? { frame_rate: rate } : {}),
      });
      setReport(conformSummary(answer, file.name));
    } catch (error) {
      const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
      setReport({ headline: `${boardName} was not conformed: ${message}`, details: [], error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="conform" aria-label="Conform">
      <h3>Conform to an editor&apos;s cut</h3>
      <p className="muted">
        Bring back the cut from Premiere, Resolve, Avid or Final Cut (OTIO, FCP 7 XML, FCPXML or EDL): new lengths,
        order and dropped shots come onto {boardName} as one change.
      </p>
      <div className="row">
        <Select
          label="Frame rate of an EDL"
          value={rate}
          options={[
            { value: '', label: 'As the EDL says (24, or 29.97 for drop frame)' },
            ...FRAME_RATES.map((each) => ({ value: each, label: `${each} fps` })),
          ]}
          onChange={(next) => setRate(next as FrameRate | '')}
        />
        <button type="button" className="button-small" disabled={busy} onClick={() => picker.current?.click()}>
          Conform…
        </button>
        <input
          ref={picker}
          type="file"
          hidden
          accept=".otio,.xml,.fcpxml,.edl,application/json,application/xml,text/xml,text/plain"
          aria-label="Conform the board to a timeline file: OTIO, FCP 7 XML, FCPXML or EDL"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void conform(file);
          }}
        />
      </div>
      {report ? <ImportReport report={report} onDismiss={() => setReport(null)} /> : null}
    </section>
  );
}
