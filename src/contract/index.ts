/** The Canvas Tool Interface contract: every wire shape, declared once. Types are inferred from these schemas. */
export * from './identifiers.js';
export * from './node-data/common.js';
export * from './node-data/director.js';
export * from './node-data/image.js';
export * from './node-data/audio.js';
export * from './node-data/skill.js';
export * from './node-data/canvas-nodes.js';
export * from './node-data/media-nodes.js';
export * from './node.js';
export * from './edge.js';
export * from './node-run.js';
export * from './canvas.js';
export * from './skills.js';
export * from './errors.js';
export * from './tools.js';
export * from './json-schema.js';
export * from './rest.js';
