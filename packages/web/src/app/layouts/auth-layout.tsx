import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { BrandMark } from '../brand.tsx';
import './auth-layout.css';

export interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

/** The centered card used by sign-in, elevation, verification and organization choice. */
export function AuthLayout({ title, subtitle, children, footer, wide = false }: AuthLayoutProps) {
  return (
    <main className="auth-page">
      <div className={wide ? 'auth-column auth-column-wide' : 'auth-column'}>
        <div className="auth-brand">
          <BrandMark />
        </div>
        <section className="auth-card" aria-labelledby="auth-title">
          <header className="auth-header">
            <h1 id="auth-title" className="auth-title">
              {title}
            </h1>
            {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
          </header>
          {children}
        </section>
        <div className="auth-footer">
          {footer}
          {/* Issue 8: the API documents are public, so the reference is offered before sign-in too. */}
          <p className="auth-footer-links">
            <Link to={paths.apiReference}>API reference</Link>
          </p>
        </div>
      </div>
    </main>
  );
}
