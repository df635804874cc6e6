export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  label?: string;
  /** Inside a busy button the button already says it is busy. */
  decorative?: boolean;
}

export function Spinner({ size = 'md', label = 'Loading', decorative = false }: SpinnerProps) {
  if (decorative) return <span className={`spinner spinner-${size}`} aria-hidden="true" />;
  return (
    <span className={`spinner spinner-${size}`} role="status" aria-label={label}>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="full-page-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}
