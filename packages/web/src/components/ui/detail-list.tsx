import type { ReactNode } from 'react';
import './resource-page.css';

export interface DetailItem {
  label: string;
  value: ReactNode;
}

/** The fields of a resource's detail box, as a description list (term, then value). */
export function DetailList({ label, items }: { label: string; items: readonly DetailItem[] }) {
  return (
    <section className="card detail-box" aria-label={label}>
      <dl className="detail-list">
        {items.map((item) => (
          <div key={item.label} className="detail-item">
            <dt>{item.label}</dt>
            <dd>{item.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
