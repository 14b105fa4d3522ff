import { useCallback, useEffect, useState } from 'react';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookView,
} from '../../../src/contract/webhooks.js';
import { api } from '../model/api.js';
import { useChange } from './use-change.js';

/**
 * For owners: the project's webhook endpoints. Add one (its secret shown once), rotate its secret, delete
 * it, and read its recent deliveries with a "Send again" for each.
 */
export function WebhooksPanel({ projectId }: { projectId: string }) {
  const [hooks, setHooks] = useState<WebhookView[] | null>(null);
  const [privateAllowed, setPrivateAllowed] = useState(false);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<WebhookEventType>>(new Set(WEBHOOK_EVENT_TYPES));
  const [allowPrivate, setAllowPrivate] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>([]);

  const reload = useCallback(async () => {
    const listed = await api.webhooks(projectId);
    setHooks(listed.webhooks);
    setPrivateAllowed(listed.private_network_allowed);
    if (open) setDeliveries((await api.webhookDeliveries(projectId, open)).deliveries);
  }, [projectId, open]);
  const { act, problem } = useChange(reload);
  useEffect(() => {
    void act(() => Promise.resolve());
  }, [reload]);

  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });

  return (
    <section className="project" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted">
        Run events and layout revisions, signed (Standard Webhooks) and retried for 24 hours, sent to your endpoints in
        order.
      </p>
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}
      <form
        className="webhook-form"
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            const created = await api.createWebhook(projectId, {
              url: url.trim(),
              events: [...events],
              allow_private_network: privateAllowed && allowPrivate,
            });
            setSecret({ url: created.url, secret: created.secret });
            setUrl('');
          });
        }}
      >
        <label>
          Endpoint URL{' '}
          <input
            type="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://example.com/hooks/canvas"
            required
          />
        </label>
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="option">
              <input
                type="checkbox"
                checked={events.has(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />{' '}
              {type}
            </label>
          ))}
        </fieldset>
        {privateAllowed ? (
          <label className="option">
            <input type="checkbox" checked={allowPrivate} onChange={(event) => setAllowPrivate(event.target.checked)} />{' '}
            Allow http and private network addresses
          </label>
        ) : (
          <p className="muted">
            Endpoints are https addresses on the internet: this server does not deliver to private networks.
          </p>
        )}
        <button type="submit" className="button-small button-primary" disabled={events.size === 0}>
          Add webhook
        </button>
      </form>
      {secret ? (
        <label className="team-link">
          Signing secret for {secret.url} (shown once: copy it now)
          <input type="text" readOnly value={secret.secret} onFocus={(event) => event.target.select()} />
        </label>
      ) : null}
      {hooks?.length === 0 ? <p className="muted">No webhook yet.</p> : null}
      <ul className="team-invites">
        {hooks?.map((hook) => (
          <li key={hook.webhook_id} data-webhook={hook.webhook_id}>
            <span>
              <strong>{hook.url}</strong>:{' '}
              {hook.events.length === WEBHOOK_EVENT_TYPES.length ? 'every event' : hook.events.join(', ')}
              {hook.allow_private_network ? ' (private network allowed)' : ''}
            </span>
            <span className="webhook-actions">
              <button
                type="button"
                className="button-small"
                aria-expanded={open === hook.webhook_id}
                onClick={() => setOpen(open === hook.webhook_id ? null : hook.webhook_id)}
              >
                Deliveries
              </button>
              <button
                type="button"
                className="button-small"
                aria-label={`Rotate secret of ${hook.url}`}
                onClick={() =>
                  void act(async () => {
                    const rotated = await api.rotateWebhookSecret(projectId, hook.webhook_id);
                    setSecret({ url: rotated.url, secret: rotated.secret });
                  })
                }
              >
                Rotate secret
              </button>
              <button
                type="button"
                className="button-small"
                aria-label={`Delete the webhook ${hook.url}`}
                onClick={() => void act(() => api.deleteWebhook(projectId, hook.webhook_id))}
              >
                Delete
              </button>
            </span>
            {open === hook.webhook_id ? (
              <table className="team-table webhook-deliveries">
                <caption className="muted">Recent deliveries to {hook.url}</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">
                      <span className="visually-hidden">Send again</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.map((delivery) => (
                    <tr key={delivery.delivery_id}>
                      <td>
                        {delivery.type} on {delivery.canvas_id}
                      </td>
                      <td>{delivery.status}</td>
                      <td>{delivery.attempts}</td>
                      <td>
                        {delivery.last_status ?? delivery.last_error ?? '–'}
                        {delivery.latency_ms !== null ? ` in ${delivery.latency_ms} ms` : ''}
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button-small"
                          aria-label={`Send again: ${delivery.type} ${delivery.delivery_id}`}
                          onClick={() =>
                            void act(() => api.redeliverWebhook(projectId, hook.webhook_id, delivery.delivery_id))
                          }
                        >
                          Send again
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
