import { activitySince } from '@berth/core';
/** spec 3 §2: the activity filters, in the console's query string; `all` means no filter. */
export interface OperationFilters {
  resourceType: string;
  operationType: string;
  operationStatus: string;
}

export const ALL = 'all';

/** Every operation of a scope (the resource banners read the newest page unfiltered). */
export const NO_OPERATION_FILTERS: OperationFilters = {
  resourceType: ALL,
  operationType: ALL,
  operationStatus: ALL,
};

/** contract §5.11: the server reads resource_type, operation_type (or type) and operation_status (or status). */
/** A page of an operation list as the console asks for it: within the 2-week window (spec 3 §9) from `now`. */
export function activityPagePath(
  basePath: string,
  page: number,
  filters: OperationFilters,
  now: number,
  after: string | null = null,
): string {
  const query = new URLSearchParams({ since: activitySince(now) });
  if (after) query.set('after', after);
  return `${operationListPath(basePath, page, filters)}&${query}`;
}

export function operationListPath(basePath: string, page: number, filters: OperationFilters): string {
  const [path, existing] = basePath.split('?');
  const query = new URLSearchParams(existing ?? '');
  query.set('page', String(page));
  if (filters.resourceType !== ALL) query.set('resource_type', filters.resourceType);
  if (filters.operationType !== ALL) query.set('operation_type', filters.operationType);
  if (filters.operationStatus !== ALL) query.set('operation_status', filters.operationStatus);
  return `${path}?${query}`;
}
