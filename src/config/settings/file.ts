/** The settings file read when it exists in the working directory (`--config` names another). */
export const SETTINGS_FILE = 'canvas-mcp.config.json';
