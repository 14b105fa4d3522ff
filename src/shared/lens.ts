import type { SensorFormatId } from '../contract/node-data/floor-plan.js';

/**
 * Field of view from a sensor format and a focal length, for the floor plan's cameras (docs/storyboards.md,
 * "Floor plans"). One table, one formula: the web card, the PDF and the tests all read this module.
 *
 * Sensor widths are the image area's horizontal size in mm, as the manufacturers and standards give them:
 * - Super 35: 24.89 mm, the 4-perf Super 35 (full aperture) camera gate (SMPTE 59; ARRI's "Super 35" format).
 * - Full frame: 36 mm, the 24 × 36 mm "35 mm still" frame (Canon, Nikon, Sony full-frame bodies).
 * - Alexa 35: 27.99 mm, ARRI ALEXA 35 4.6K 3:2 Open Gate (27.99 × 19.22 mm, ARRI's published sensor area).
 * - Super 16: 12.52 mm, the Super 16 camera aperture (12.52 × 7.41 mm).
 * - Micro Four Thirds: 17.3 mm, the Four Thirds system's 17.3 × 13 mm image area (Olympus, Panasonic).
 */
export const SENSOR_FORMATS: Readonly<Record<SensorFormatId, { label: string; widthMm: number }>> = {
  super35: { label: 'Super 35', widthMm: 24.89 },
  full_frame: { label: 'Full frame', widthMm: 36 },
  alexa35: { label: 'Alexa 35', widthMm: 27.99 },
  super16: { label: 'Super 16', widthMm: 12.52 },
  micro_four_thirds: { label: 'Micro Four Thirds', widthMm: 17.3 },
};

/** The horizontal angle of view in degrees: 2·atan(w / 2f), w the sensor width and f the focal length, in mm. */
export function horizontalFovDeg(format: SensorFormatId, focalLengthMm: number): number {
  if (!(focalLengthMm > 0)) throw new RangeError('focal length must be greater than 0 mm');
  const width = SENSOR_FORMATS[format].widthMm;
  return (2 * Math.atan(width / (2 * focalLengthMm)) * 180) / Math.PI;
}
