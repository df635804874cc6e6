import { GUIDED_DEPLOY_STEPS, type GuidedDeployStep } from '@berth/core';
import './guided-deploy.css';

/** spec 3 "Guided app deployment": the four steps, the current one marked, those done checked. */
export function DeploySteps({ current }: { current: GuidedDeployStep }) {
  return (
    <ol className="deploy-steps" aria-label="Deploy steps">
      {GUIDED_DEPLOY_STEPS.map((label, index) => {
        const number = index + 1;
        const state = number < current ? 'done' : number === current ? 'current' : 'next';
        return (
          <li
            key={label}
            className={`deploy-step deploy-step-${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="deploy-step-number" aria-hidden="true">
              {number}
            </span>
            <span className="deploy-step-label">
              {label}
              {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
