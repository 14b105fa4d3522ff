import { describe, expect, it } from 'vitest';
import { replaceAssetUrls } from '../../src/assets/asset-url-fields.js';

/**
 * Where node data holds asset paths that a canvas read signs (src/assets/asset-url-fields.ts): URL fields, and the
 * items of a shot's `earlierPictures`, so a picture a shot showed before is readable wherever the shot is.
 */

const A = 'asset_aaaaaaaaaaaaaaaa';
const B = 'asset_bbbbbbbbbbbbbbbb';
const sign = (_path: string, id: string) => `/assets/${id}?exp=9&sig=s`;

describe('asset paths in node data', () => {
  it("signs a shot's picture and each of its earlier pictures, signed before or not, and nothing else", () => {
    const json = JSON.stringify({
      frames: [
        {
          id: 'a',
          imageUrl: `/assets/${A}`,
          earlierPictures: [`/assets/${B}?exp=1&sig=old`, 'https://example.com/x.png'],
          notes: `/assets/${B}`,
        },
      ],
    });
    expect(JSON.parse(replaceAssetUrls(json, sign))).toEqual({
      frames: [
        {
          id: 'a',
          imageUrl: `/assets/${A}?exp=9&sig=s`,
          earlierPictures: [`/assets/${B}?exp=9&sig=s`, 'https://example.com/x.png'],
          notes: `/assets/${B}`,
        },
      ],
    });
  });

  it('leaves earlier pictures alone when only run outputs are asked for', () => {
    const json = JSON.stringify({ earlierPictures: [`/assets/${A}`] });
    expect(replaceAssetUrls(json, sign, 'url')).toBe(json);
  });
});
