import { type ReactNode, useId } from 'react';
import './home.css';

/** One card of the home dashboard: a titled section, with a link to the whole list where there is one. */
export function HomeCard({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="card home-card" aria-labelledby={titleId}>
      <header className="home-card-header">
        <h2 id={titleId} className="home-card-title">
          {title}
        </h2>
        {action ? <div className="home-card-action">{action}</div> : null}
      </header>
      <div className="home-card-body">{children}</div>
    </section>
  );
}

/** A card's figures: each a name and what it is. */
export function HomeFacts({ facts }: { facts: { name: string; value: ReactNode }[] }) {
  return (
    <dl className="home-facts">
      {facts.map((fact) => (
        <div key={fact.name} className="home-fact">
          <dt>{fact.name}</dt>
          <dd>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
