import { SHOT_ANGLES, SHOT_MOVEMENTS, SHOT_SIZES, SHOT_STATUSES } from '../../../src/contract/index.js';
import type { Shot } from '../model/shots.js';
import { useCanvas } from './canvas-context.js';
import { Select } from './select.js';

/**
 * A shot's fields edited in place, one control per field, for every view that edits shots (the shot list's cells,
 * the board page's frames): a field is saved when it is left or Enter is pressed, as one revision, and only when the
 * person typed in it, so passing through with Tab writes nothing and never rewrites a field they did not change
 * (a single-line box once saved a multi-line action with its line breaks removed). Description, action, dialogue and
 * notes keep their line breaks (Shift+Enter adds one); a number that is not one is refused, saying so.
 */

export type ShotFieldName =
  | 'scene'
  | 'shotSize'
  | 'angle'
  | 'movement'
  | 'lensMm'
  | 'durationMs'
  | 'caption'
  | 'action'
  | 'dialogue'
  | 'cast'
  | 'location'
  | 'look'
  | 'status'
  | 'notes';

type Kind = 'text' | 'lines' | 'number' | 'seconds' | 'names' | 'choice';

const FIELDS: Record<ShotFieldName, { label: string; kind: Kind; choices?: Record<string, string> }> = {
  scene: { label: 'Scene', kind: 'text' },
  shotSize: { label: 'Shot size', kind: 'choice', choices: SHOT_SIZES },
  angle: { label: 'Angle', kind: 'choice', choices: SHOT_ANGLES },
  movement: { label: 'Movement', kind: 'choice', choices: SHOT_MOVEMENTS },
  lensMm: { label: 'Lens', kind: 'number' },
  durationMs: { label: 'Duration', kind: 'seconds' },
  caption: { label: 'Description', kind: 'lines' },
  action: { label: 'Action', kind: 'lines' },
  dialogue: { label: 'Dialogue', kind: 'lines' },
  cast: { label: 'Cast', kind: 'names' },
  location: { label: 'Location', kind: 'text' },
  look: { label: 'Look', kind: 'text' },
  status: { label: 'Status', kind: 'choice', choices: SHOT_STATUSES },
  notes: { label: 'Notes', kind: 'lines' },
};

/** How a field is named to people ("Description" for `caption`). */
export function shotFieldLabel(field: ShotFieldName): string {
  return FIELDS[field].label;
}

const NOT_A_NUMBER = Symbol('not a number');
const text = (value: unknown) => (typeof value === 'string' ? value : '');

// A number field left empty clears it; anything else that is not a number is refused, saying so (never cleared).
const numberOf = (raw: string): number | undefined | typeof NOT_A_NUMBER => {
  if (raw.trim() === '') return undefined;
  const value = Number(raw.trim().replace(',', '.'));
  return Number.isFinite(value) ? value : NOT_A_NUMBER;
};

/** The field as its box shows it. */
function shown(shot: Shot, field: ShotFieldName, kind: Kind): string {
  const value = shot[field];
  if (kind === 'number') return typeof value === 'number' ? String(value) : '';
  if (kind === 'seconds') return typeof value === 'number' ? String(value / 1000) : '';
  if (kind === 'names') return Array.isArray(value) ? value.map(text).join(', ') : '';
  return text(value);
}

/** What a box's words are as the field's value. */
function parsed(raw: string, kind: Kind): unknown {
  if (kind === 'number') return numberOf(raw);
  if (kind === 'seconds') {
    const seconds = numberOf(raw);
    return typeof seconds === 'number' ? Math.round(seconds * 1000) : seconds;
  }
  if (kind === 'names')
    return raw
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  return raw.trim();
}

export function ShotField({
  shot,
  field,
  number,
  editable,
  save,
  className,
}: {
  shot: Shot;
  field: ShotFieldName;
  /** The shot's number as shown: the control is named "Description of shot 3". */
  number: string;
  editable: boolean;
  save: (fields: Record<string, unknown>) => void;
  className?: string;
}) {
  const { controller } = useCanvas();
  const { label, kind, choices } = FIELDS[field];
  const name = `${label} of shot ${number}`;
  if (kind === 'choice')
    return (
      <Select
        className={className}
        label={name}
        value={text(shot[field])}
        disabled={!editable}
        onChange={(next) => save({ [field]: next })}
        options={[
          { value: '', label: '–' },
          ...Object.entries(choices!).map(([key, words]) => ({
            value: key,
            label: key === words ? key : field === 'shotSize' ? key : words,
          })),
        ]}
      />
    );
  const value = shown(shot, field, kind);
  const multiLine = kind === 'lines';
  const Box = multiLine ? 'textarea' : 'input';
  return (
    <Box
      className={className}
      aria-label={name}
      defaultValue={value}
      // A change someone else made shows at once (the box is made again with it).
      key={value}
      disabled={!editable}
      {...(multiLine ? { rows: Math.min(4, Math.max(1, value.split('\n').length)) } : {})}
      onInput={(event) => {
        event.currentTarget.dataset.edited = 'true';
      }}
      onBlur={(event) => {
        const edited = event.target.dataset.edited === 'true';
        delete event.target.dataset.edited;
        if (!edited || event.target.value === value) return;
        const next = parsed(event.target.value, kind);
        if (next === NOT_A_NUMBER) {
          controller.notify('warning', `${name}: "${event.target.value}" is not a number; it was not saved.`);
          event.target.value = value;
          return;
        }
        save({ [field]: next });
      }}
      onKeyDown={(event) => {
        // Enter saves; in a box of several lines, Shift+Enter starts a new line. Escape puts back what was there.
        if (event.key === 'Enter' && !(multiLine && event.shiftKey)) {
          event.preventDefault();
          event.currentTarget.blur();
        } else if (event.key === 'Escape') {
          event.currentTarget.value = value;
          delete event.currentTarget.dataset.edited;
          event.currentTarget.blur();
        }
      }}
    />
  );
}
