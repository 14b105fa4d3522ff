import { useEffect, useState } from 'react';

interface SignInMethods {
  links: boolean;
  oidc: { name: string; start: string } | null;
}

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
      <p>
        {methods?.oidc ? 'Or open' : 'Open'} the sign-in link you were given. Links work once and for a short time. The
        person who runs this server makes one with:
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
