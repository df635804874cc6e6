import { formatUsd } from '@berth/core';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { Home } from '../../../resources/home/home.hal.ts';
import './home.css';

/**
 * spec 3 §2 Home: the counts of dedicated stacks, environments, apps and managed databases (each opening
 * its list) and the estimated monthly cost, all of what the caller may read.
 */
export function CountCards({ home }: { home: Home }) {
  const counts = [
    { label: 'Dedicated Stacks', value: home.counts.dedicatedStacks, to: paths.stacks },
    { label: 'Environments', value: home.counts.environments, to: paths.environments },
    { label: 'Apps', value: home.counts.apps, to: paths.apps },
    { label: 'Databases', value: home.counts.databases, to: paths.databases },
  ];
  const cost = formatUsd(home.estimatedMonthlyCost);
  return (
    <ul className="home-counts" aria-label="Resources at a glance">
      {counts.map((count) => (
        <li key={count.label}>
          <Link to={count.to} className="card home-count home-count-link">
            {/* Named by what it shows, "3 Apps" (WCAG 2.5.3: the name contains the visible text). */}
            <span className="home-count-value">{count.value.toLocaleString()}</span>{' '}
            <span className="home-count-label">{count.label}</span>
          </Link>
        </li>
      ))}
      <li>
        <div className="card home-count">
          <span className="home-count-value">{cost}</span>
          <span className="home-count-label">Estimated Monthly Cost</span>
        </div>
      </li>
    </ul>
  );
}
