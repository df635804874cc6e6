import { bannerTone, operationStatusLabel } from '@berth/core';
import { Link } from 'react-router';
import { to } from '../../../lib/paths.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import './guided-deploy.css';

export interface DeployProgressStep {
  /** "Initial configuration", "Database provision shop-postgresql", "App deployment". */
  name: string;
  /** Its latest operation, or null while it is not asked for yet. */
  operation: Operation | null;
}

/**
 * The steps of a guided deploy with their operations' statuses in the spec's words (QUEUED, RUNNING,
 * DONE, FAILED), each linked to its operation page for the logs.
 */
export function DeployProgress({ steps }: { steps: readonly DeployProgressStep[] }) {
  return (
    <ul className="deploy-progress" aria-label="Deploy progress">
      {steps.map(({ name, operation }) => {
        const tone = operation ? bannerTone(operation.status) : null;
        return (
          <li key={name}>
            <span className="deploy-progress-name">{name}</span>
            <span className="deploy-progress-status">
              {operation ? <Link to={to.operation(operation.id)}>Operation {operation.id}</Link> : null}
              {operation ? (
                <span className={`status-pill${tone ? ` status-pill-${tone}` : ''}`}>
                  {operationStatusLabel(operation.status)}
                </span>
              ) : (
                <span className="muted">Not started yet</span>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
