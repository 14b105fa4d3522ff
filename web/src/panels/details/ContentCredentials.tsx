import { useState } from 'react';

/**
 * "Content credentials" on a result (docs/provenance.md, "In the canvas"): what the signed C2PA manifest in the file
 * says (who made it, that it is AI-generated, when and by whose certificate, from what), read from the server when the
 * person opens it.
 */

interface Said {
  state: 'Invalid' | 'Valid' | 'Trusted';
  failures: string[];
  made_by: string | null;
  source_type: string | null;
  signed_at: string | null;
  signer: string | null;
  ingredients: Array<{ title: string | null; relationship: string | null }>;
}

const SOURCE_WORDS: Record<string, string> = {
  trainedAlgorithmicMedia: 'made by a generative model',
  compositeWithTrainedAlgorithmicMedia: 'composed with generated media',
  algorithmicMedia: 'made by an algorithm',
  composite: 'composed of other media',
};

/** The asset's credentials route from its URL: `/assets/{id}?exp&sig` → `/assets/{id}/credentials?exp&sig`. */
function credentialsUrl(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}/credentials${parsed.search}`;
}

export function ContentCredentials({ url }: { url: string }) {
  const [said, setSaid] = useState<Said | null | 'none' | 'error' | undefined>(undefined);
  const load = async () => {
    if (said !== undefined) return;
    try {
      const response = await fetch(credentialsUrl(url), { credentials: 'same-origin' });
      const body = (await response.json()) as { credentials: Said | null };
      setSaid(response.ok ? (body.credentials ?? 'none') : 'error');
    } catch {
      setSaid('error');
    }
  };
  return (
    <details className="content-credentials" onToggle={(event) => event.currentTarget.open && void load()}>
      <summary>Content credentials</summary>
      {said === undefined ? <p className="muted">Reading…</p> : null}
      {said === 'none' ? <p className="muted">This file carries none.</p> : null}
      {said === 'error' ? <p className="error-line">They could not be read.</p> : null}
      {said && typeof said === 'object' ? (
        <dl data-credentials-state={said.state}>
          <dt>Check</dt>
          <dd>
            {said.state === 'Invalid'
              ? `Broken: the file changed after it was signed (${said.failures.join('; ')})`
              : said.state === 'Trusted'
                ? 'Intact, signed by this deployment'
                : 'Intact (the signer is not on a trust list)'}
          </dd>
          <dt>Made by</dt>
          <dd>{said.made_by ?? 'not said'}</dd>
          <dt>Source</dt>
          <dd>{said.source_type ? (SOURCE_WORDS[said.source_type] ?? said.source_type) : 'not said'}</dd>
          <dt>Signed</dt>
          <dd>
            {said.signed_at ? new Date(said.signed_at).toLocaleString() : 'no time'}
            {said.signer ? ` by ${said.signer}` : ''}
          </dd>
          {said.ingredients.length > 0 ? (
            <>
              <dt>Made from</dt>
              <dd>{said.ingredients.map((ingredient) => ingredient.title ?? '?').join(', ')}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </details>
  );
}
