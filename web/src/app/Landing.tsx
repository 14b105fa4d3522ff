/** What a person sees without a session: how to get in, in plain words. */
export function Landing({ reason }: { reason?: string }) {
  return (
    <main className="landing">
      <h1>canvas-mcp</h1>
      <p className="lead">A storyboard canvas that people and their agents edit together, live.</p>
      {reason ? <p className="landing-reason">{reason}</p> : null}
      <h2>Sign in</h2>
      <p>
        Open the sign-in link you were given. Links work once and for a short time. The person who runs this server makes
        one with:
      </p>
      <pre>npm run -s cli -- admin login-link --issuer ISSUER --subject YOU --project PROJECT --canvas CANVAS</pre>
      <p>
        On a fresh server, the first <code>npm start</code> prints a link for the demo canvas.
      </p>
    </main>
  );
}
