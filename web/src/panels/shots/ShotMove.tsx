import { useEffect, useRef, useState } from 'react';
import { CAMERA_EASINGS, CAMERA_MOVE_KINDS, CameraMove, type Framing } from '../../../../src/contract/shots.js';
import {
  DEFAULT_EASING,
  FRAMING_PRESETS,
  framingProblems,
  type FramingPreset,
} from '../../../../src/shared/camera-move.js';
import { Select } from '../../ui/select.js';

/**
 * A shot's camera move in the shot list (docs/deliverables.md, "Camera moves"): a preset framing pair ("wide → close"),
 * the kind and the easing, and the start and end framings as numbers (left, top and size, in fractions of the
 * picture). Numbers are checked with the contract's own shape and `framingProblems` before saving; a refusal names
 * the field.
 */

const same = (a: Framing, b: Framing) =>
  (['x', 'y', 'width', 'height'] as const).every((key) => Math.abs(a[key] - b[key]) < 1e-6);

function presetOf(move: CameraMove | undefined): FramingPreset | 'custom' | '' {
  if (!move) return '';
  const found = (Object.keys(FRAMING_PRESETS) as FramingPreset[]).find(
    (name) => same(FRAMING_PRESETS[name].start, move.start) && same(FRAMING_PRESETS[name].end, move.end),
  );
  return found ?? 'custom';
}

const NUMBERS = [
  ['start', 'x', 'Start left'],
  ['start', 'y', 'Start top'],
  ['start', 'width', 'Start size'],
  ['end', 'x', 'End left'],
  ['end', 'y', 'End top'],
  ['end', 'width', 'End size'],
] as const;

export function ShotMove({
  move: stored,
  number,
  editable,
  save: saveMove,
}: {
  move: unknown;
  number: string;
  editable: boolean;
  save: (move: CameraMove | undefined) => void;
}) {
  const parsed = CameraMove.safeParse(stored);
  const shown = stored && parsed.success ? parsed.data : undefined;
  // The move as last saved from here: a second change before the first comes back builds on it, not on the older one.
  const latest = useRef(shown);
  useEffect(() => {
    latest.current = shown;
  }, [stored]);
  const save = (next: CameraMove | undefined) => {
    latest.current = next;
    saveMove(next);
  };
  const move = shown;
  const [error, setError] = useState<string | null>(null);
  const preset = presetOf(move);
  const label = (what: string) => `${what} of shot ${number}`;

  const setNumbers = (form: HTMLFormElement) => {
    const value = (name: string) => Number((form.elements.namedItem(name) as HTMLInputElement).value.replace(',', '.'));
    const framing = (which: 'start' | 'end') => {
      const size = value(`${which}.width`);
      return { x: value(`${which}.x`), y: value(`${which}.y`), width: size, height: size };
    };
    const result = CameraMove.safeParse({ ...latest.current, start: framing('start'), end: framing('end') });
    if (!result.success) {
      const issue = result.error.issues[0]!;
      setError(`move.${issue.path.join('.')}: ${issue.message}`);
      return;
    }
    const [problem] = framingProblems(result.data);
    if (problem) {
      setError(`move.${problem.path}: ${problem.message}`);
      return;
    }
    setError(null);
    save(result.data);
  };

  return (
    <td className="shot-move">
      <Select
        label={label('Camera move')}
        value={preset}
        disabled={!editable}
        onChange={(chosen) => {
          const name = chosen as FramingPreset | '' | 'custom';
          if (name === '') save(undefined);
          else if (name !== 'custom')
            save(
              CameraMove.parse({
                // Written out, so the shot list shows what the move does.
                easing: DEFAULT_EASING,
                kind: 'derived',
                ...latest.current,
                start: FRAMING_PRESETS[name].start,
                end: FRAMING_PRESETS[name].end,
              }),
            );
        }}
        options={[
          { value: '', label: '–' },
          ...Object.keys(FRAMING_PRESETS).map((name) => ({ value: name, label: name })),
          ...(preset === 'custom' ? [{ value: 'custom', label: 'custom' }] : []),
        ]}
      />
      {move ? (
        <>
          <Select
            label={label('Move kind')}
            value={move.kind ?? 'derived'}
            disabled={!editable}
            onChange={(next) => save({ ...(latest.current ?? move), kind: next as CameraMove['kind'] })}
            options={CAMERA_MOVE_KINDS.map((kind) => ({ value: kind, label: kind }))}
          />
          <Select
            label={label('Easing')}
            value={move.easing ?? DEFAULT_EASING}
            disabled={!editable}
            onChange={(next) => save({ ...(latest.current ?? move), easing: next as CameraMove['easing'] })}
            options={CAMERA_EASINGS.map((easing) => ({ value: easing, label: easing }))}
          />
          <details>
            <summary>Framing</summary>
            <form
              aria-label={label('Framing')}
              key={JSON.stringify(move)}
              onSubmit={(event) => {
                event.preventDefault();
                setNumbers(event.currentTarget);
              }}
            >
              {NUMBERS.map(([which, key, name]) => (
                <label key={`${which}.${key}`}>
                  {name}
                  <input
                    name={`${which}.${key}`}
                    inputMode="decimal"
                    size={4}
                    defaultValue={String(move[which][key])}
                    disabled={!editable}
                  />
                </label>
              ))}
              <button type="submit" disabled={!editable}>
                Set
              </button>
              {error ? <p role="alert">{error}</p> : null}
            </form>
          </details>
        </>
      ) : null}
    </td>
  );
}
