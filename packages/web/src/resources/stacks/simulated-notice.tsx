import './simulated-notice.css';

/**
 * Issue 35: what a simulated stack's stack, apps and operations are, in one sentence each, so nobody
 * takes the simulator's containers, log lines or names for real ones.
 */
export const SIMULATED_SENTENCES = {
  stack:
    "This stack runs on Berth's simulator: its apps and databases run no code, and their operations change nothing outside Berth.",
  app: 'This app is on a simulated stack: its deploys fetch, build and run no code, so it has no git remote to push to.',
  operation:
    'This operation ran on a simulated stack: its steps and log lines stand for the work, and nothing ran outside Berth.',
} as const;

/** The "Simulated" badge and the sentence that says what it means for the page's subject. */
export function SimulatedNotice({ subject }: { subject: keyof typeof SIMULATED_SENTENCES }) {
  return (
    <p className="simulated-notice" role="note" aria-label="Simulated">
      <span className="badge badge-warning">Simulated</span>
      <span>{SIMULATED_SENTENCES[subject]}</span>
    </p>
  );
}
