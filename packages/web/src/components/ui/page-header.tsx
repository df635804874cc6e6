import { type ReactNode, type Ref, useEffect } from 'react';
import { setHeaderName } from '../../lib/document-title.ts';

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** The heading, for a page that sends focus to it (when what had focus goes away). */
  titleRef?: Ref<HTMLHeadingElement>;
}

export function PageHeader({ title, description, actions, titleRef }: PageHeaderProps) {
  // A resource's page is named in the document title by its heading (lib/document-title.ts).
  useEffect(() => {
    setHeaderName(title);
    return () => setHeaderName(null);
  }, [title]);
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
