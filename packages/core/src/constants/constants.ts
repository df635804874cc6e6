// spec 1 §9 and spec 3 §9: business constants.

export const TOKEN_LIFETIME_SECONDS = { session: 43200, elevated: 1800, exchange: 86090 } as const;
/**
 * Ours (issue 41, as GitHub's sudo mode): for this long after an elevation with credentials, the same
 * browser session may get an elevated token without them (`POST /tokens` grant `session_elevation`), so a
 * reload or a new tab does not ask again. Each such token lasts at most what is left of the window.
 */
export const ELEVATION_WINDOW_SECONDS = 900;
export const SESSION_ELEVATION_GRANT = 'session_elevation';
export const SIDEBAR_WIDTH_PX = { collapsed: 64, expanded: 256 } as const;
export const SIDEBAR_COLLAPSE_BREAKPOINT_PX = 767;
/**
 * Ours (issue 41, phones): at this width and below the menu leaves no rail beside the page; a top bar's
 * Menu button opens it as a drawer, and key tables show their rows as stacked cards. The spec's 64 px
 * rail stays from here to the collapse breakpoint, where it still leaves the page room.
 */
export const PHONE_BREAKPOINT_PX = 599;
export const LABEL_TRUNCATE_LENGTH = 20;
export const DEFAULT_TABLE_PAGE_SIZE = 25;
export const SERVER_PAGE_SIZE_DEFAULT = 40;
export const MAX_PAGE_SIZE = 5000;
/** spec 3 §2: the page sizes a table offers, from the default to a whole full list. */
export const TABLE_PAGE_SIZE_OPTIONS = [DEFAULT_TABLE_PAGE_SIZE, 50, 100, 500, MAX_PAGE_SIZE] as const;
/** spec 1 §9 "Pagination cap 50 pages"; contract §1.4: an auto-paged list reads pages 2..N, N at most 50. */
export const MAX_PAGES = 50;
export const SEARCH_DEBOUNCE_MS = 300;
/**
 * contract §1.13, spec 3 §4: how often the console polls what is changing (the console pauses while the
 * tab is hidden). Operation lists include an app's deployments, which its operations add to.
 */
export const POLL_INTERVAL_MS = {
  operationList: 10_000,
  /** A single endpoint or certificate, and the lists of them while one is settling. */
  endpoint: 5_000,
  certificate: 5_000,
  /** A single operation, until it is succeeded or failed. */
  operation: 3_000,
} as const;
/** contract §1.13: cached lists (stacks, environments, apps, …) are refetched after 60 s when revisited. */
export const CACHED_LIST_STALE_MS = 60_000;
export const HOURS_PER_MONTH = 730;
/** spec 2 §9: the container sizes the scale form offers, in GB; each profile keeps those within its limits. */
export const CONTAINER_SIZES_GB = [0.5, 1, 2, 4, 7, 15, 30, 60, 150, 240, 368, 496, 752] as const;
export const DEFAULT_SHARED_STACK = {
  name: 'shared-us-west-1',
  region: 'us-west-1',
  runtime: 'sim',
} as const;

/** spec 1 §3: persisted client state keys. */
export const PERSISTED_KEYS = [
  'theme',
  'nav',
  'redirectPath',
  'feedback',
  'resourceStats',
  'notices',
] as const;
export type PersistedKey = (typeof PERSISTED_KEYS)[number];
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'light';

export const AWS_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-northeast-1',
  'ap-northeast-2',
  'sa-east-1',
] as const;

export function truncateLabel(value: string, length = LABEL_TRUNCATE_LENGTH): string {
  return value.length > length ? `${value.slice(0, length)}...` : value;
}
