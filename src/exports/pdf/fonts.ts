import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The fonts the PDF exports embed: Noto Sans (Latin, Cyrillic, Greek) from `@embedpdf/fonts-latin`, and
 * Noto Sans JP (kana, kanji and common CJK) from `@embedpdf/fonts-jp` for the characters Noto Sans lacks. No single
 * font covers a board written in several scripts, so text is split into runs, each printed in the font that has its
 * glyphs: a dialogue like "Привет, 「行こう」" prints with real glyphs instead of empty boxes.
 */

const require = createRequire(import.meta.url);

/** A font's folder inside its package. Neither package exports `./package.json`, so we go from its main entry. */
function fontsFolder(packageName: string): string {
  return path.join(path.dirname(require.resolve(packageName)), '..', 'fonts');
}

export type FontWeight = 'regular' | 'bold';

/** The face a run is printed in: Noto Sans, or Noto Sans JP for what Noto Sans lacks. */
export type FontFace = 'sans' | 'jp';

const FILES: Record<FontFace, Record<FontWeight, () => string>> = {
  sans: {
    regular: () => path.join(fontsFolder('@embedpdf/fonts-latin'), 'NotoSans-Regular.ttf'),
    bold: () => path.join(fontsFolder('@embedpdf/fonts-latin'), 'NotoSans-Bold.ttf'),
  },
  jp: {
    regular: () => path.join(fontsFolder('@embedpdf/fonts-jp'), 'NotoSansJP-Regular.otf'),
    bold: () => path.join(fontsFolder('@embedpdf/fonts-jp'), 'NotoSansJP-Bold.otf'),
  },
};

/** The path of Noto Sans Regular or Bold (TTF), for other renderers (the animatic's burned-in text uses it with ffmpeg). */
export function fontFile(weight: FontWeight): string {
  return FILES.sans[weight]();
}

/** resvg's font options: Noto Sans from the package, never the machine's fonts, so an SVG draws the same everywhere. */
export function svgFonts() {
  return { fontFiles: [fontFile('regular'), fontFile('bold')], loadSystemFonts: false, defaultFontFamily: 'Noto Sans' };
}

/** The name a face is registered under in a pdfkit document (see registerFonts). */
export function fontName(face: FontFace, weight: FontWeight): string {
  return `${face === 'sans' ? 'NotoSans' : 'NotoSansJP'}-${weight === 'bold' ? 'Bold' : 'Regular'}`;
}

/**
 * The font files' bytes, read once on first use and kept: every export of the process reuses them (Noto Sans JP is
 * 4.5 MB a weight, too much to read again for each PDF). pdfkit parses them per document and embeds only the glyphs
 * used (a subset), so a PDF carries a few kilobytes of each font.
 */
const bytesCache = new Map<string, Buffer>();
function fontBytes(face: FontFace, weight: FontWeight): Buffer {
  const file = FILES[face][weight]();
  let bytes = bytesCache.get(file);
  if (!bytes) {
    bytes = readFileSync(file);
    bytesCache.set(file, bytes);
  }
  return bytes;
}

/** Makes the four faces available to a pdfkit document under fontName(face, weight). */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const face of ['sans', 'jp'] as const)
    for (const weight of ['regular', 'bold'] as const)
      doc.registerFont(fontName(face, weight), fontBytes(face, weight));
}

/**
 * The glyph lookup: fontkit, the font engine pdfkit itself uses. It is pdfkit's dependency, not ours, so it is
 * resolved from pdfkit's folder (it stays the very engine that lays the text out, and no dependency is added); it ships
 * no types, hence the one method we call is declared here.
 */
interface GlyphLookup {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
interface Fontkit {
  create(bytes: Buffer): GlyphLookup;
}

let lookups: Record<FontFace, GlyphLookup> | null = null;
function glyphLookups(): Record<FontFace, GlyphLookup> {
  if (!lookups) {
    const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as Fontkit;
    // Bold and Regular cover the same characters: the Regular files answer for both weights.
    lookups = { sans: fontkit.create(fontBytes('sans', 'regular')), jp: fontkit.create(fontBytes('jp', 'regular')) };
  }
  return lookups;
}

export interface TextRun {
  face: FontFace;
  text: string;
}

/**
 * Marks that belong to the character before them (combining accents, variation selectors, zero-width joiners): they
 * stay in that character's run, so a base letter and its accent are never printed in two fonts.
 */
const CLINGING = /^(?:\p{M}|\u200c|\u200d|[\ufe00-\ufe0f])$/u;
export function clingsToPrevious(char: string): boolean {
  return CLINGING.test(char);
}

/**
 * The runs of a text by the font that has its glyphs: Noto Sans first (it has the Latin, Cyrillic and Greek letters,
 * digits, spaces and common punctuation), Noto Sans JP for what it lacks. A character neither has (emoji, Arabic, Thai…)
 * stays in Noto Sans and prints as the font's empty box (.notdef), which copies out of the PDF as nothing.
 */
export function splitRuns(text: string): TextRun[] {
  const { sans, jp } = glyphLookups();
  const runs: TextRun[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const last = runs.at(-1);
    const face: FontFace =
      last && clingsToPrevious(char)
        ? last.face
        : sans.hasGlyphForCodePoint(codePoint) || !jp.hasGlyphForCodePoint(codePoint)
          ? 'sans'
          : 'jp';
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}
