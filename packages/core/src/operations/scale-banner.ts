import { isOperationFinished, isOperationPending } from './operation-status.ts';

// spec 2 §4 scale banner: 'Last Scale' with a from/to summary when the latest scale has finished,
// 'Scale in Progress' while it is queued or running, hidden when there is none or its status is unknown.
// "From" is what the scale recorded when it ran (the wire's Berth `previous_*` fields); a scale that has
// not run yet, or one recorded before Berth kept them, falls back to the service and the earlier scales.

/** The fields of an operation the scale banner reads (the console's Operation satisfies it). */
export interface ScaleOperationLike {
  id: string;
  type: string;
  status: string;
  containerCount: number | null;
  containerSize: number | null;
  instanceProfile: string | null;
  /** What the scale changed from, recorded when it ran; absent or null when unknown. */
  previousContainerCount?: number | null;
  previousContainerSize?: number | null;
  previousInstanceProfile?: string | null;
  createdAt: string;
}

export interface ScaleBanner {
  title: 'Last Scale' | 'Scale in Progress';
  operationId: string;
  status: string;
  /** e.g. "Container count from 1 to 2; Container size from 1 GB to 2 GB"; empty when nothing is known. */
  summary: string;
}

function newestFirst<T extends { createdAt: string; id: string }>(operations: readonly T[]): T[] {
  return [...operations].sort((a, b) => {
    const byDate = Date.parse(b.createdAt || '') - Date.parse(a.createdAt || '');
    if (!Number.isNaN(byDate) && byDate !== 0) return byDate;
    return Number(b.id) - Number(a.id) || 0;
  });
}

function sizeLabel(mb: number): string {
  return mb >= 1024 ? `${Number((mb / 1024).toFixed(2))} GB` : `${mb} MB`;
}

interface Dimension {
  label: string;
  read: (operation: ScaleOperationLike) => number | string | null;
  /** The value the operation recorded before it changed the service. */
  readPrevious: (operation: ScaleOperationLike) => number | string | null;
  format: (value: number | string) => string;
}

const DIMENSIONS: readonly Dimension[] = [
  {
    label: 'Container count',
    read: (op) => op.containerCount,
    readPrevious: (op) => op.previousContainerCount ?? null,
    format: String,
  },
  {
    label: 'Container size',
    read: (op) => op.containerSize,
    readPrevious: (op) => op.previousContainerSize ?? null,
    format: (value) => sizeLabel(Number(value)),
  },
  {
    label: 'Container profile',
    read: (op) => op.instanceProfile,
    readPrevious: (op) => op.previousInstanceProfile ?? null,
    format: String,
  },
];

/** The service's size as it stands now. */
export interface ScaleValues {
  containerCount: number | null;
  containerSize: number | null;
  instanceProfile: string | null;
}

/**
 * The scale banner for a service, from its operations (any order). The "from" value of each dimension
 * is the one the scale recorded when it ran; failing that, the service's current value while the scale
 * is pending (it has not changed yet), else the value set by the newest earlier succeeded scale; when
 * unknown, only "to" is shown. Dimensions the scale
 * left as they were are not listed.
 */
export function scaleBanner(
  operations: readonly ScaleOperationLike[],
  current: ScaleValues | null = null,
): ScaleBanner | null {
  const scales = newestFirst(operations.filter((operation) => operation.type === 'scale'));
  const [latest, ...earlier] = scales;
  if (!latest) return null;
  let title: ScaleBanner['title'];
  if (isOperationPending(latest.status)) title = 'Scale in Progress';
  else if (isOperationFinished(latest.status)) title = 'Last Scale';
  else return null;
  const previous = earlier.filter((operation) => operation.status === 'succeeded');
  const parts: string[] = [];
  for (const dimension of DIMENSIONS) {
    const target = dimension.read(latest);
    if (target === null) continue;
    const fromCurrent =
      title === 'Scale in Progress' && current ? dimension.read({ ...latest, ...current }) : null;
    const before =
      dimension.readPrevious(latest) ??
      fromCurrent ??
      previous.map(dimension.read).find((value) => value !== null) ??
      null;
    if (before === target) continue;
    parts.push(
      before === null
        ? `${dimension.label} to ${dimension.format(target)}`
        : `${dimension.label} from ${dimension.format(before)} to ${dimension.format(target)}`,
    );
  }
  return { title, operationId: latest.id, status: latest.status, summary: parts.join('; ') };
}
