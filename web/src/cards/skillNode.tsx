import { useCanvas } from '../ui/canvas-context.js';
import { CardShell, ErrorLine, FileLink, ImageResults, runOutputs, useSaveField, type CardProps } from './parts.js';
import { SkillParameters } from './skill-parameters.js';
import { recordOf, text } from '../model/values.js';

/** skillNode: which skill (named as the catalog names it), its parameters as a form, and what it produced. */
export function SkillNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const { skills } = useCanvas();
  const save = useSaveField(card.data.node.id);
  const skillId = text(data.skill_id) ?? '';
  const entry = skills?.skills.find((skill) => skill.skill_id === skillId);
  const images = runOutputs(card.data.state, 'image');
  const json = runOutputs(card.data.state, 'json');
  return (
    <CardShell card={card} runnable>
      <div className="skill-id" title={entry?.description}>
        {entry ? (
          <>
            {entry.title} <span className="muted">{skillId}</span>
          </>
        ) : (
          skillId
        )}
      </div>
      <SkillParameters
        schema={entry?.input_schema}
        values={recordOf(data.parameters)}
        onChange={(next) => save('parameters', next, 'Change skill parameters')}
      />
      <ImageResults urls={images.ready} pending={images.pending} alt={entry?.title ?? skillId} />
      {json.ready.map((url) => (
        <FileLink key={url} url={url}>
          Open the result
        </FileLink>
      ))}
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
