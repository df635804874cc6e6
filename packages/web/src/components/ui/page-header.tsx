import type { ReactNode, Ref } from 'react';

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** The heading, for a page that sends focus to it (when what had focus goes away). */
  titleRef?: Ref<HTMLHeadingElement>;
}

export function PageHeader({ title, description, actions, titleRef }: PageHeaderProps) {
  return (
    <header className="page-header">
      <div>
        <h1 className="page-title" ref={titleRef}>
          {title}
        </h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}
