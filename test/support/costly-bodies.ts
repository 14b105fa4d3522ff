/**
 * The JSON values that cost a naive server the most per byte, each sized so that a body holding one stays under the
 * default body limit of 1 MiB. Tests compose them into tool calls and REST bodies.
 */
export function costlyValues() {
  const wrongProp =
    '{"id":1,"prop_id":2,"name":3,"label":4,"marker_color":5,"semantic_label":6,"type":7,"category":8,"shape_hint":9}';
  const wrongProps = new Array(1000).fill(wrongProp).join(',');
  return {
    /** `"k0":0,"k1":0,…`: 80,000 members to put inside an object. */
    unknownKeys: Array.from({ length: 80_000 }, (_, index) => `"k${index}":0`).join(','),
    /** `[0,0,…]`: 450,000 items. */
    arrayItems: `[${new Array(450_000).fill('0').join(',')}]`,
    /** A director bundle with 4,000 objects of wrong field types (36,000 field issues). */
    wrongDirectorBundle:
      `{"schema_version":"director_control_bundle_v1","dir":"d","paths":{},"rel_paths":{},"frame_meta":{"schema_version":"director_frame_meta_v1",` +
      `"source":{"source_id":"s","source_type":"sog","source_kind":"master"},"camera":{},"layer":{"source_id":"s","actors":[${wrongProps}],"props":[],"stagings":[]},` +
      `"props":[${wrongProps}],"stagings":[${wrongProps}],"actors":[${wrongProps}]}}`,
    /** `{"a":[[[…]]]}`: arrays 400,000 levels deep. */
    deepNesting: `{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}`,
    /** `{"a":[{"i":1,"j":[1]},…]}`: 60,000 small objects. */
    smallObjects: `{"a":[${new Array(60_000).fill('{"i":1,"j":[1]}').join(',')}]}`,
  };
}
