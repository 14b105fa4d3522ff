/**
 * What each node type is called on its placeholder, and the colour of its family (the palette's names,
 * web/src/model/palette.ts), so a card without a picture still says what it is.
 */

const LABELS: Record<string, string> = {
  textAnnotationNode: 'Note',
  groupNode: 'Group',
  beatContextNode: 'Beat',
  scriptNode: 'Script',
  storyboardNode: 'Storyboard',
  storyboardGenNode: 'Storyboard generator',
  imageGenNode: 'Image generator',
  imageNode: 'Image',
  exportImageNode: 'Export image',
  uploadNode: 'Upload',
  pano360ViewerNode: '360° viewer',
  threeDWorldNode: '3D world',
  audioNode: 'Audio',
  audioTrimNode: 'Audio trim',
  videoNode: 'Video',
  videoStoryNode: 'Video story',
  videoComposeNode: 'Video compose',
  skillNode: 'Skill',
  floorPlanNode: 'Floor plan',
};

/** Header and placeholder colours per family: story, picture, sound, film, text, structure. */
const FAMILY: Record<string, { accent: string; fill: string }> = {
  story: { accent: '#7c3aed', fill: '#ede9fe' },
  picture: { accent: '#2563eb', fill: '#dbeafe' },
  sound: { accent: '#059669', fill: '#d1fae5' },
  film: { accent: '#dc2626', fill: '#fee2e2' },
  text: { accent: '#ca8a04', fill: '#fef9c3' },
  other: { accent: '#475569', fill: '#e2e8f0' },
};

const FAMILY_OF: Record<string, keyof typeof FAMILY> = {
  beatContextNode: 'story',
  scriptNode: 'story',
  storyboardNode: 'story',
  storyboardGenNode: 'story',
  floorPlanNode: 'story',
  imageGenNode: 'picture',
  imageNode: 'picture',
  exportImageNode: 'picture',
  uploadNode: 'picture',
  pano360ViewerNode: 'picture',
  threeDWorldNode: 'picture',
  audioNode: 'sound',
  audioTrimNode: 'sound',
  videoNode: 'film',
  videoStoryNode: 'film',
  videoComposeNode: 'film',
  textAnnotationNode: 'text',
};

export function nodeTypeLabel(type: string): string {
  return LABELS[type] ?? type;
}

export function nodeTypeColours(type: string): { accent: string; fill: string } {
  return FAMILY[FAMILY_OF[type] ?? 'other']!;
}
