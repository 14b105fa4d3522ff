import { useEffect, useState } from 'react';

import type { SignInMethods } from '../../../src/contract/index.js';

/** What a person sees without a session: how to get in, in plain words (and the team's provider, when there is one). */
export function Landing({ reason }: { reason?: string }) {
  const [methods, setMethods] = useState<SignInMethods | null>(null);
  useEffect(() => {
    fetch('/api/v1/auth/methods')
      .then((response) => (response.ok ? (response.json() as Promise<SignInMethods>) : null))
      .then(setMethods, () => setMethods(null));
  }, []);
  const next = `${window.location.pathname}${window.location.search}`;
  return (
    <main className="landing">
      <h1>canvas-mcp</h1>
      <p className="lead">A storyboard canvas that people and their agents edit together, live.</p>
      {reason ? <p className="landing-reason">{reason}</p> : null}
      <h2>Sign in</h2>
      {methods?.oidc ? (
        <p>
          <a className="button button-primary" href={`${methods.oidc.start}?next=${encodeURIComponent(next)}`}>
            Sign in with {methods.oidc.name}
          </a>
        </p>
      ) : null}
      {methods?.email ? (
        <form method="post" action="/auth/email-link" className="landing-email">
          <label>
            Your e-mail address{' '}
            <input type="email" name="email" autoComplete="email" required placeholder="you@studio.example" />
          </label>{' '}
          <button type="submit" className="button-small button-primary">
            E-mail me a sign-in link
          </button>
        </form>
      ) : null}
      <p>
        {methods?.oidc || methods?.email ? 'Or open' : 'Open'} the sign-in link you were given. Links work once and for
        a short time. The person who runs this server makes one with:
      </p>
      {/* A wide line scrolls on a narrow screen: it takes the focus, so a keyboard can scroll it too (axe). */}
      <pre tabIndex={0} aria-label="The command that makes a sign-in link">
        npm run -s cli -- admin login-link --issuer ISSUER --subject YOU --project PROJECT --canvas CANVAS
      </pre>
      <p>
        On a fresh server, the first <code>npm start</code> prints a link for the demo canvas. An owner can also send
        you an invitation link from the project's Team page.
      </p>
    </main>
  );
}
