import type { ApiRoute } from '../route-declaration.js';
import { ASSET_ROUTES } from '../routes/assets.js';
import { AUTH_ROUTES } from '../routes/auth.js';
import { BOARD_IMAGE_ROUTES } from '../routes/board-image.js';
import { CANVAS_ROUTES } from '../routes/canvas.js';
import { CHAT_ROUTES } from '../routes/chat.js';
import { CHECKPOINT_ROUTES } from '../routes/checkpoints.js';
import { CONNECTION_ROUTES } from '../routes/connections.js';
import { CONSENT_ROUTES } from '../routes/consent.js';
import { ELEMENT_ROUTES } from '../routes/elements.js';
import { EXPORT_ROUTES } from '../routes/exports.js';
import { FEED_ROUTES } from '../routes/feed.js';
import { HEALTH_ROUTES } from '../routes/health.js';
import { INTROSPECT_ROUTES } from '../routes/introspect.js';
import { INVITE_ROUTES } from '../routes/invite.js';
import { METRICS_ROUTES } from '../routes/metrics.js';
import { OIDC_ROUTES } from '../routes/oidc.js';
import { OPENAPI_ROUTES } from '../routes/openapi.js';
import { PEOPLE_ROUTES } from '../routes/people.js';
import { PEOPLE_PICTURE_ROUTES } from '../routes/people-pictures.js';
import { PRESENCE_ROUTES } from '../routes/presence.js';
import { GUEST_REVIEW_ROUTES } from '../routes/review-guests.js';
import { MARKED_FRAME_ROUTES } from '../routes/marked-frames.js';
import { REVIEW_ROUTES } from '../routes/review.js';
import { REVIEW_ROOM_ROUTES } from '../routes/review-room.js';
import { SHARED_ROOM_ROUTES } from '../routes/shared-room.js';
import { RUN_APPROVAL_ROUTES } from '../routes/run-approvals.js';
import { RUN_ROUTES } from '../routes/runs.js';
import { SCRIPT_IMPORT_ROUTES } from '../routes/script-import.js';
import { CONFORM_ROUTES } from '../routes/conform.js';
import { SESSION_ROUTES } from '../routes/sessions.js';
import { SHARE_LINK_ROUTES } from '../routes/share-links.js';
import { SHOT_LIST_ROUTES } from '../routes/shot-list.js';
import { DRAWING_ROUTES } from '../routes/drawings.js';
import { CONTINUITY_ROUTES } from '../routes/continuity.js';
import { TEAM_ROUTES } from '../routes/team.js';
import { TEMPLATE_ROUTES } from '../routes/templates.js';
import { TIDY_ROUTES } from '../routes/tidy.js';
import { UPLOAD_ROUTES } from '../routes/uploads.js';
import { WEBHOOK_ROUTES } from '../routes/webhooks.js';

/**
 * Every route of the backend's HTTP API: the declarations each routes/<feature>.ts keeps beside its handlers
 * (src/http/route-declaration.ts). The OpenAPI document is assembled from them (api-document.ts), and a test checks
 * them against the routes the server registers, both ways. A function rather than a list: the route that serves the
 * document is one of them, so its module and this one import each other, and neither may read the other's exports
 * while they are still being evaluated.
 */
export function apiRoutes(): readonly ApiRoute[] {
  return [
    ...HEALTH_ROUTES,
    ...METRICS_ROUTES,
    ...OPENAPI_ROUTES,
    ...ASSET_ROUTES,
    ...AUTH_ROUTES,
    ...OIDC_ROUTES,
    ...INVITE_ROUTES,
    ...CONSENT_ROUTES,
    ...INTROSPECT_ROUTES,
    ...CONNECTION_ROUTES,
    ...PEOPLE_ROUTES,
    ...PEOPLE_PICTURE_ROUTES,
    ...SESSION_ROUTES,
    ...TEAM_ROUTES,
    ...WEBHOOK_ROUTES,
    ...TEMPLATE_ROUTES,
    ...ELEMENT_ROUTES,
    ...CANVAS_ROUTES,
    ...RUN_ROUTES,
    ...FEED_ROUTES,
    ...PRESENCE_ROUTES,
    ...SCRIPT_IMPORT_ROUTES,
    ...CONFORM_ROUTES,
    ...SHOT_LIST_ROUTES,
    ...DRAWING_ROUTES,
    ...CONTINUITY_ROUTES,
    ...UPLOAD_ROUTES,
    ...CHECKPOINT_ROUTES,
    ...TIDY_ROUTES,
    ...BOARD_IMAGE_ROUTES,
    ...EXPORT_ROUTES,
    ...SHARE_LINK_ROUTES,
    ...RUN_APPROVAL_ROUTES,
    ...REVIEW_ROUTES,
    ...GUEST_REVIEW_ROUTES,
    ...REVIEW_ROOM_ROUTES,
    ...SHARED_ROOM_ROUTES,
    ...MARKED_FRAME_ROUTES,
    ...CHAT_ROUTES,
  ];
}
