/** The Berth mark: a hull on the waterline. */
export function BrandMark({ withName = true }: { withName?: boolean }) {
  return (
    <span className="brand">
      <svg className="brand-logo" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
        <path d="M8 20h16l-2.5 4h-11z" fill="#fff" />
        <path d="M15 7v11H9z" fill="#fff" opacity="0.7" />
        <path d="M17 9v9h5z" fill="#fff" />
      </svg>
      {withName ? <span className="brand-name">Berth</span> : null}
    </span>
  );
}
