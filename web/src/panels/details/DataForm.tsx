import { useId, useState } from 'react';
import type { CanvasNode } from '../../../../src/contract/index.js';
import { dataFields, fieldRefusal, type DataField } from '../../model/data-fields.js';
import { patchData } from '../../model/intents.js';
import { recordOf } from '../../model/values.js';
import { useCanvas, useEditable } from '../../ui/canvas-context.js';
import { Select } from '../../ui/select.js';

/**
 * The selected node's data as a form, one control per field of its type's data schema (model/data-fields.ts). A
 * field is saved when it is left, on Enter, or when chosen, as one revision through the same intent the cards use
 * (patchData), and only when it changed; a value the contract refuses is not saved, and the field says why, naming
 * itself. Escape puts back what was there. The raw JSON is under Advanced, read-only.
 */
export function DataForm({ node }: { node: CanvasNode }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const fields = dataFields(node.type);
  const data = recordOf(node.data);

  const save = (field: DataField, value: unknown, refused?: string): boolean => {
    if (refused) {
      setRefusals((now) => ({ ...now, [field.name]: `${field.label}: ${refused}` }));
      return false;
    }
    if (value === data[field.name] || (value === undefined && !(field.name in data))) {
      setRefusals(({ [field.name]: _gone, ...rest }) => rest);
      return true;
    }
    const refusal = fieldRefusal(node.type, data, field, value);
    if (refusal) {
      setRefusals((now) => ({ ...now, [field.name]: refusal }));
      return false;
    }
    setRefusals(({ [field.name]: _gone, ...rest }) => rest);
    const authors = () => controller.store.getState().lastAuthor;
    void controller.submit(patchData(node.id, { [field.name]: value }, `Edit ${field.label.toLowerCase()}`, authors));
    return true;
  };

  if (fields.length === 0) return null;
  return (
    <form
      className="data-form"
      aria-label={`Data of ${node.id}`}
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      {fields.map((field) => (
        <FieldRow
          key={`${node.id}/${field.name}`}
          field={field}
          value={data[field.name]}
          editable={editable}
          refusal={refusals[field.name] ?? null}
          save={(value, refused) => save(field, value, refused)}
        />
      ))}
    </form>
  );
}

/** What emptying a field means: left out when it may be, else null when it may be, else the empty text. */
function emptied(field: DataField): unknown {
  return field.optional ? undefined : field.nullable ? null : '';
}

function FieldRow({
  field,
  value,
  editable,
  refusal,
  save,
}: {
  field: DataField;
  value: unknown;
  editable: boolean;
  refusal: string | null;
  /** `refused`: why the words typed are no value of the field at all (not a number). */
  save: (value: unknown, refused?: string) => boolean;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const described = refusal ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  let control;
  if (field.kind === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        disabled={!editable}
        onChange={(event) => save(event.target.checked)}
        {...described}
      />
    );
  } else if (field.kind === 'choice') {
    const choices = field.choices ?? [];
    control = (
      <Select
        id={id}
        label={field.label}
        value={value === undefined || value === null ? '' : String(value)}
        disabled={!editable}
        onChange={(next) => save(next === '' ? emptied(field) : choices.find((choice) => String(choice) === next))}
        options={[
          ...(field.optional || field.nullable ? [{ value: '', label: '–' }] : []),
          ...choices.map((choice) => ({ value: String(choice), label: String(choice) })),
        ]}
      />
    );
  } else {
    const shown = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    const multiLine = field.kind === 'text' && shown.includes('\n');
    const Box = multiLine ? 'textarea' : 'input';
    const commit = (element: HTMLInputElement | HTMLTextAreaElement) => {
      if (element.dataset.edited !== 'true') return;
      const raw = element.value;
      let next: unknown;
      if (raw.trim() === '') next = emptied(field);
      else if (field.kind === 'number') {
        const number = Number(raw.trim().replace(',', '.'));
        if (!Number.isFinite(number)) {
          save(undefined, `"${raw}" is not a number; it was not saved.`);
          return;
        }
        next = number;
      } else next = raw;
      if (save(next)) delete element.dataset.edited;
    };
    control = (
      <Box
        id={id}
        key={shown}
        defaultValue={shown}
        readOnly={!editable}
        {...(multiLine ? { rows: Math.min(6, shown.split('\n').length) } : { type: 'text' })}
        {...(field.kind === 'number' ? { inputMode: 'decimal' as const } : {})}
        {...described}
        onInput={(event) => {
          event.currentTarget.dataset.edited = 'true';
        }}
        onBlur={(event) => commit(event.currentTarget)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !(multiLine && event.shiftKey)) {
            event.preventDefault();
            commit(event.currentTarget);
          } else if (event.key === 'Escape') {
            event.currentTarget.value = shown;
            delete event.currentTarget.dataset.edited;
            save(value);
          }
        }}
      />
    );
  }
  return (
    <div className={`data-field data-field-${field.kind}`} title={field.description}>
      <label htmlFor={id}>{field.label}</label>
      {control}
      {refusal ? (
        <p id={errorId} className="error-line" role="alert">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}
