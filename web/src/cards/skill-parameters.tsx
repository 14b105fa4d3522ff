import { useEditable } from '../ui/canvas-context.js';
import { recordOf, list, text } from '../model/values.js';
import { Select } from '../ui/select.js';

/**
 * A form for a skill's parameters, generated from the JSON Schema the skill catalog publishes for it (the same schema
 * the server validates skillNode.data.parameters with): an enum is a select, a boolean a checkbox, a number or string
 * an input. Leaving a field empty removes the parameter.
 */
export function SkillParameters({
  schema,
  values,
  onChange,
}: {
  schema: Record<string, unknown> | undefined;
  values: Record<string, unknown>;
  onChange: (next: Record<string, unknown>) => void;
}) {
  const editable = useEditable();
  const properties = Object.entries(recordOf(schema?.properties));
  if (!schema) {
    // The catalog is not here (yet, or at all in the MCP App): the values as they are.
    const set = Object.entries(values);
    return set.length === 0 ? null : (
      <div className="chips">
        {set.map(([name, value]) => (
          <span key={name} className="chip">{`${name.replaceAll('_', ' ')}: ${String(value)}`}</span>
        ))}
      </div>
    );
  }
  if (properties.length === 0) return <div className="muted">This skill takes no parameters.</div>;
  const set = (name: string, value: unknown) => {
    const next = { ...values };
    if (value === undefined || value === '') delete next[name];
    else next[name] = value;
    onChange(next);
  };
  return (
    <div className="skill-form nodrag">
      {properties.map(([name, raw]) => {
        const property = recordOf(raw);
        const choices = list(property.enum).filter(
          (choice): choice is string | number => typeof choice === 'string' || typeof choice === 'number',
        );
        const label = text(property.title) ?? name.replaceAll('_', ' ');
        const current = values[name];
        return (
          <label key={name} className="skill-field" title={text(property.description)}>
            <span>{label}</span>
            {choices.length > 0 ? (
              <Select
                label={label}
                disabled={!editable}
                value={current === undefined ? '' : String(current)}
                onChange={(next) =>
                  set(
                    name,
                    choices.find((choice) => String(choice) === next),
                  )
                }
                options={[
                  { value: '', label: 'default' },
                  ...choices.map((choice) => ({ value: String(choice), label: String(choice).replaceAll('_', ' ') })),
                ]}
              />
            ) : property.type === 'boolean' ? (
              <input
                type="checkbox"
                disabled={!editable}
                checked={current === true}
                onChange={(event) => set(name, event.target.checked)}
              />
            ) : property.type === 'number' || property.type === 'integer' ? (
              <input
                type="number"
                disabled={!editable}
                defaultValue={typeof current === 'number' ? current : ''}
                onBlur={(event) => set(name, event.target.value === '' ? undefined : Number(event.target.value))}
              />
            ) : (
              <input
                type="text"
                disabled={!editable}
                defaultValue={typeof current === 'string' ? current : ''}
                onBlur={(event) => set(name, event.target.value)}
              />
            )}
          </label>
        );
      })}
    </div>
  );
}
