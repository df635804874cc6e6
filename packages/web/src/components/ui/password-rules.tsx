import { passwordProblems } from '@berth/core';

export interface PasswordRulesProps {
  id: string;
  password: string;
  /** After a failed submit the unmet rules read as errors. */
  showAsErrors: boolean;
}

/** spec 1 §5: the password rules (sign-up, change and reset), checked live with core's own messages. */
export function PasswordRules({ id, password, showAsErrors }: PasswordRulesProps) {
  const problems = passwordProblems(password);
  return (
    <div id={id} className="password-rules" data-state={showAsErrors && problems.length ? 'error' : 'idle'}>
      {problems.length === 0 ? (
        <p className="password-rules-ok" aria-live="polite">
          Password meets every requirement.
        </p>
      ) : (
        <ul aria-label="Requirements not yet met" aria-live="polite">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
