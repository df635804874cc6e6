import { homeMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths, to } from '../../../lib/paths.ts';
import type { Home } from '../../../resources/home/home.hal.ts';
import { sourceName } from '../../../resources/sources/source.hal.ts';
import { HomeCard, HomeFacts } from './home-card.tsx';

/**
 * spec 3 §2 "A sources summary: the top repository with up to 7 live commits". `dots` draws the commits
 * (the sources feature's commit dots, handed in by the route).
 */
export function TopSourceCard({ source, dots }: { source: Home['topSource']; dots: ReactNode }) {
  return (
    <HomeCard title="Top Source" action={<Link to={paths.sources}>View sources</Link>}>
      {source ? (
        <HomeFacts
          facts={[
            { name: 'Repository', value: <Link to={to.source(source.id)}>{sourceName(source)}</Link> },
            { name: 'URL', value: <span className="home-url">{source.url}</span> },
            { name: 'Apps', value: source.apps.toLocaleString() },
            { name: 'Live commits', value: dots },
          ]}
        />
      ) : (
        <p className="home-empty">
          {homeMessages.noSource}. <Link to={paths.sourcesSetup}>Set up a source</Link>
        </p>
      )}
    </HomeCard>
  );
}
