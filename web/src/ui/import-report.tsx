/** What an import said (a script, an editor's timeline): a headline, one line per change, and a way to close it. */
export interface ImportReportText {
  headline: string;
  details: string[];
  error?: boolean;
}

/** The report box: a status while it reads or after it worked, an alert when it was refused. */
export function ImportReport({ report, onDismiss }: { report: ImportReportText; onDismiss: () => void }) {
  return (
    <div
      className={report.error ? 'import-report import-report-error' : 'import-report'}
      role={report.error ? 'alert' : 'status'}
    >
      <strong>{report.headline}</strong>
      {report.details.length > 0 ? (
        <ul>
          {report.details.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="button-small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
