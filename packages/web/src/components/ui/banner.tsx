import type { ReactNode } from 'react';

export type BannerVariant = 'info' | 'success' | 'warning' | 'error';

export interface BannerProps {
  variant?: BannerVariant;
  title?: string;
  children?: ReactNode;
  actions?: ReactNode;
}

const ICON_PATHS: Record<BannerVariant, string> = {
  info: 'M12 8h.01M11 12h1v4h1',
  success: 'M8 12.5l2.5 2.5L16 9.5',
  warning: 'M12 8v5M12 16h.01',
  error: 'M9 9l6 6M15 9l-6 6',
};

export function Banner({ variant = 'info', title, children, actions }: BannerProps) {
  // Errors interrupt; the other kinds are announced politely.
  const role = variant === 'error' || variant === 'warning' ? 'alert' : 'status';
  return (
    <div className={`banner banner-${variant}`} role={role}>
      <svg className="banner-icon" viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="12" r="9" />
        <path d={ICON_PATHS[variant]} />
      </svg>
      <div className="banner-body">
        {title ? <p className="banner-title">{title}</p> : null}
        {children ? <div className="banner-text">{children}</div> : null}
      </div>
      {actions ? <div className="banner-actions">{actions}</div> : null}
    </div>
  );
}
