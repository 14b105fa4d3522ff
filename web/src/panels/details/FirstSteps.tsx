import { useEffect, useState } from 'react';
import { doneSteps, FIRST_STEPS, markFirstStep, watchFirstSteps, type FirstStep } from '../../model/first-steps.js';

/** The tips of the first minutes (model/first-steps.ts), where the details of a selected node go. */
export function FirstSteps() {
  const [done, setDone] = useState(doneSteps);
  useEffect(() => watchFirstSteps(() => setDone(doneSteps())), []);
  const left = (Object.keys(FIRST_STEPS) as FirstStep[]).filter((step) => !done.has(step));
  if (done.has('dismissed') || left.length === 0)
    return <p className="muted panel-empty">Select a node to see its details.</p>;
  return (
    <section className="first-steps" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">Try this</h2>
      <ul>
        {left.map((step) => (
          <li key={step} data-step={step}>
            {FIRST_STEPS[step]}
          </li>
        ))}
      </ul>
      <button type="button" className="button-small" onClick={() => markFirstStep('dismissed')}>
        Hide these tips
      </button>
    </section>
  );
}
