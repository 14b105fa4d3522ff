import { useRef, useState, type FormEvent } from 'react';
import {
  ELEMENT_KINDS,
  MAX_ELEMENT_REFERENCES,
  type ElementKind,
  type ElementView,
} from '../../../../src/contract/index.js';
import { safeMediaUrl } from '../../cards/media-url.js';
import { useCanvasState, useEditable, useMediaOrigin } from '../../ui/canvas-context.js';
import { api, ApiError } from '../../model/api.js';
import { reloadElements, useProjectElements } from '../../model/elements.js';
import { sendFiles } from '../../model/uploads.js';
import { optionsOf, Select } from '../../ui/select.js';

/**
 * The project's elements (docs/storyboards.md, "Elements"): cast, locations, props and styles, each
 * with notes and up to four reference pictures. A shot names an element in its cast or location, or mentions it
 * (`@Mara`); a generation of that shot, or one whose prompt mentions it, is given its pictures.
 */

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

export function ElementsPanel() {
  const address = useCanvasState((state) => state.address);
  const editable = useEditable();
  const { elements, error } = useProjectElements(address.projectId);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Runs one change, then reads the elements again; a refusal is shown as the server words it. */
  const change = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      return true;
    } catch (failure) {
      setProblem(messageOf(failure));
      return false;
    } finally {
      await reloadElements(address.projectId);
      setBusy(false);
    }
  };

  return (
    <div className="elements">
      <p className="muted">
        What must look the same in every shot. A shot is linked to an element its cast or location names, or that its
        words mention as <code>@Name</code>; its pictures then go with every generation of that shot.
      </p>
      {error ? <p className="error-line">Could not read the elements: {error}</p> : null}
      {problem ? (
        <p className="error-line" role="alert">
          {problem}
        </p>
      ) : null}
      {editable ? <NewElement busy={busy} change={change} projectId={address.projectId} /> : null}
      {elements.length === 0 ? <p className="muted">No elements yet.</p> : null}
      <ul className="element-list">
        {elements.map((element) => (
          <ElementCard key={element.element_id} element={element} editable={editable} busy={busy} change={change} />
        ))}
      </ul>
    </div>
  );
}

type Change = (work: () => Promise<unknown>) => Promise<boolean>;

function NewElement({ busy, change, projectId }: { busy: boolean; change: Change; projectId: string }) {
  const [kind, setKind] = useState<ElementKind>('character');
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const added = await change(() => api.createElement(projectId, { kind, name: name.trim(), notes }));
    if (added) {
      setName('');
      setNotes('');
    }
  };
  return (
    <form className="element-new" onSubmit={(event) => void submit(event)}>
      <label>
        Kind
        <Select
          label="Kind"
          value={kind}
          onChange={(next) => setKind(next as ElementKind)}
          options={optionsOf(ELEMENT_KINDS)}
        />
      </label>
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Mara" maxLength={60} />
      </label>
      <label>
        Notes
        <input value={notes} onChange={(event) => setNotes(event.target.value)} placeholder="Keeper, 40s, grey coat" />
      </label>
      <button type="submit" className="button-small" disabled={busy || name.trim() === ''}>
        Add element
      </button>
    </form>
  );
}

function ElementCard({
  element,
  editable,
  busy,
  change,
}: {
  element: ElementView;
  editable: boolean;
  busy: boolean;
  change: Change;
}) {
  const address = useCanvasState((state) => state.address);
  const origin = useMediaOrigin();
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const assets = element.references.map((reference) => reference.asset_id);
  const room = MAX_ELEMENT_REFERENCES - assets.length;
  const setReferences = (references: string[]) =>
    change(() => api.updateElement(address.projectId, element.element_id, { references }));

  const addPictures = async (files: File[]) => {
    if (files.length === 0) return;
    await change(async () => {
      if (files.length > room)
        throw new Error(
          `${element.name} can hold ${MAX_ELEMENT_REFERENCES} pictures; there is room for ${room} more, not ${files.length}.`,
        );
      setProgress(0);
      try {
        const receipt = await sendFiles(address, files, setProgress);
        const notPictures = receipt.uploads.filter((upload) => upload.media_kind !== 'image');
        if (notPictures.length > 0)
          throw new Error(
            `${notPictures.map((upload) => upload.file_name).join(', ')}: a reference must be a picture.`,
          );
        await api.updateElement(address.projectId, element.element_id, {
          references: [...assets, ...receipt.uploads.map((upload) => upload.asset_id)],
        });
      } finally {
        setProgress(null);
      }
    });
  };

  return (
    <li className="element" data-element={element.name}>
      <div className="element-head">
        <span className="chip">{ELEMENT_KINDS[element.kind]}</span>
        <strong>{element.name}</strong>
        <code className="muted">@{element.name}</code>
      </div>
      {element.notes ? <p className="element-notes">{element.notes}</p> : null}
      <div className="element-pictures">
        {element.references.map((reference, index) => (
          <figure key={reference.asset_id} className="element-picture">
            <img src={safeMediaUrl(reference.url, origin)} alt={`${element.name}, reference ${index + 1}`} />
            {editable ? (
              <button
                type="button"
                className="button-small"
                aria-label={`Remove reference ${index + 1} of ${element.name}`}
                disabled={busy}
                onClick={() => void setReferences(assets.filter((asset) => asset !== reference.asset_id))}
              >
                ✕
              </button>
            ) : null}
          </figure>
        ))}
      </div>
      {progress !== null ? (
        <progress max={1} value={progress} aria-label={`Sending pictures of ${element.name}`} />
      ) : null}
      {editable ? (
        <div className="element-actions">
          <input
            ref={picker}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            multiple
            hidden
            aria-label={`Reference pictures of ${element.name}`}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              void addPictures(files);
            }}
          />
          <button
            type="button"
            className="button-small"
            disabled={busy || room === 0}
            title={room === 0 ? `At most ${MAX_ELEMENT_REFERENCES} pictures` : undefined}
            onClick={() => picker.current?.click()}
          >
            Add pictures…
          </button>
          <button
            type="button"
            className="button-small"
            disabled={busy}
            onClick={() => {
              if (window.confirm(`Remove ${element.name} from the project's elements? Shots keep their words.`))
                void change(() => api.deleteElement(address.projectId, element.element_id));
            }}
          >
            Remove
          </button>
        </div>
      ) : null}
    </li>
  );
}
