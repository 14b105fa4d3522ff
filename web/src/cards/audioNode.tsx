import { useCardVersions } from './card-versions.js';
import {
  AudioPlayer,
  CardShell,
  Chips,
  EditableText,
  ErrorLine,
  shownOutputs,
  useSaveField,
  type CardProps,
} from './parts.js';
import { recordOf, formatMs, num, text } from '../model/values.js';

/** audioNode: the line to speak (or the music prompt), the voice, and a player with the duration. */
export function AudioNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const save = useSaveField(card.data.node.id);
  const versions = useCardVersions(card.data.node.id, card.data.state, text(data.externalRunId));
  const results = shownOutputs(data, card.data.state, 'audio');
  const browsed = versions.browsing?.find((output) => output.kind === 'audio')?.url;
  const url = browsed ?? results.ready[0] ?? text(data.audioUrl);
  const music = data.audioKind === 'music';
  const voice = recordOf(data.voiceRef);
  return (
    <CardShell card={card} runnable>
      <EditableText
        label={music ? 'music prompt' : 'spoken text'}
        value={text(data.text) ?? ''}
        placeholder={music ? 'Describe the music…' : 'What is said…'}
        onSave={(next) => save('text', next, music ? 'Edit music prompt' : 'Edit line', next)}
      />
      <AudioPlayer url={url} />
      {versions.controls}
      {!url && results.pending ? <div className="media-empty">Generating audio…</div> : null}
      <Chips
        items={[
          text(data.audioKind),
          formatMs(num(data.durationMs) ?? num(data.musicLengthMs)),
          text(data.voiceLabel) ?? text(voice.characterName),
          text(data.voiceLanguage),
          text(data.sourceFileName),
        ]}
      />
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
