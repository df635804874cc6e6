/**
 * A timestamp as the console shows it: date and time in the viewer's locale. An empty or unreadable
 * value shows as the fallback ('-' unless a screen says otherwise).
 */
export function formatDateTime(value: string | null | undefined, fallback = '-'): string {
  const time = Date.parse(value ?? '');
  return Number.isFinite(time) ? new Date(time).toLocaleString() : fallback;
}
