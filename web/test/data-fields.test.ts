import { describe, expect, it } from 'vitest';
import { dataFields, fieldLabel, fieldRefusal } from '../src/model/data-fields.js';

/** The Details form's fields come from the node type's data schema in the contract, and so do its refusals. */

describe('the Details form of a node type', () => {
  it("makes a text field, a number field and a choice of a text note's data, leaving the runs' fields out", () => {
    const fields = dataFields('textAnnotationNode');
    expect(fields.map((field) => [field.name, field.kind])).toEqual([
      ['content', 'text'],
      ['fontSize', 'number'],
      ['textColor', 'text'],
      ['backgroundColor', 'text'],
      ['textAlign', 'choice'],
    ]);
    expect(fields.find((field) => field.name === 'textAlign')?.choices).toEqual(['left', 'center', 'right']);
    expect(fields.find((field) => field.name === 'content')).toMatchObject({ optional: false, nullable: false });
    expect(fields.find((field) => field.name === 'textColor')).toMatchObject({ optional: true, nullable: true });
  });

  it('offers a set of number literals as a choice, and a boolean as a checkbox', () => {
    const fields = dataFields('imageGenNode');
    expect(fields.find((field) => field.name === 'count')).toMatchObject({ kind: 'choice', choices: [1, 2, 4] });
    expect(fields.find((field) => field.name === 'autoCommitOnGenerate')?.kind).toBe('boolean');
    // Lists and objects are the cards' to edit.
    expect(fields.some((field) => field.name === 'marks' || field.name === 'focusRegion')).toBe(false);
  });

  it('knows no fields of a node type the contract does not know', () => {
    expect(dataFields('notANodeType')).toEqual([]);
  });

  it('refuses what the contract refuses for the field, naming it, and takes a good value', () => {
    const data = { content: 'A note', fontSize: 14 };
    const fontSize = dataFields('textAnnotationNode').find((field) => field.name === 'fontSize')!;
    expect(fieldRefusal('textAnnotationNode', data, fontSize, -3)).toMatch(/^Font size: /);
    expect(fieldRefusal('textAnnotationNode', data, fontSize, 18)).toBeNull();
    expect(fieldRefusal('textAnnotationNode', data, fontSize, undefined)).toBeNull();
  });

  it('lets a good edit through when other data of the node is off', () => {
    const data = { content: 'A note', textAlign: 'sideways' };
    const fontSize = dataFields('textAnnotationNode').find((field) => field.name === 'fontSize')!;
    expect(fieldRefusal('textAnnotationNode', data, fontSize, 12)).toBeNull();
  });

  it('names fields as people read them', () => {
    expect(fieldLabel('aspectRatio')).toBe('Aspect ratio');
    expect(fieldLabel('output_role')).toBe('Output role');
  });
});
