import { HOME_ACTIVITY_COUNT, homeMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format-date.ts';
import { paths, to } from '../../../lib/paths.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { HomeCard } from './home-card.tsx';

/**
 * spec 3 §2: the latest 5 activities that are not polls, newest first, each opening its operation. The
 * status pill and the resource's link come from the route (the operations and services features').
 */
export function ActivityCard({
  activities,
  status,
  resource,
}: {
  activities: readonly Operation[];
  status: (operation: Operation) => ReactNode;
  resource: (operation: Operation) => ReactNode;
}) {
  return (
    <HomeCard title="Latest Activity" action={<Link to={paths.activity}>View all activity</Link>}>
      {activities.length === 0 ? (
        <p className="home-empty">{homeMessages.noActivity}</p>
      ) : (
        <ol className="home-activities" aria-label={`The latest ${HOME_ACTIVITY_COUNT} activities`}>
          {activities.map((operation) => (
            <li key={operation.id} className="home-activity">
              <div className="home-activity-what">
                <Link to={to.operation(operation.id)} className="home-activity-type">
                  {operation.type}
                </Link>
                {status(operation)}
                <span className="home-activity-resource">{resource(operation)}</span>
              </div>
              <div className="home-activity-when">
                {operation.userName || 'Berth'} · {formatDateTime(operation.updatedAt)}
              </div>
            </li>
          ))}
        </ol>
      )}
    </HomeCard>
  );
}
