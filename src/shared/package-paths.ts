import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files of the package found from the code itself: src/shared and dist/shared both sit two levels below the root. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The web canvas as `npm run build` makes it. */
export const WEB_DIR = join(PACKAGE_ROOT, 'dist', 'web');

/** The MCP App, one self-contained HTML file. */
export const MCP_APP_FILE = join(PACKAGE_ROOT, 'dist', 'mcp-app', 'app.html');
