// Issue 41: the tab's title names the page ("web · Apps · Berth"), so a screen reader user, and anyone
// with many tabs open, knows where each one is. The route says which page it is (its handle's title);
// a resource's page adds the name its header shows, reported here by the page header.

const PRODUCT = 'Berth';
const SEPARATOR = ' · ';

interface RouteTitle {
  /** The titles of the matched routes, the innermost first ("Security", "Settings"). */
  pages: readonly string[];
  /** The innermost route's header names a resource ("web"): it leads the title. */
  namedByHeader: boolean;
}

let route: RouteTitle = { pages: [], namedByHeader: false };
let headerName: string | null = null;

/** The document title for these parts: empty and repeated parts dropped, the product last. */
export function documentTitle(parts: readonly (string | null | undefined)[]): string {
  const kept: string[] = [];
  for (const part of parts) {
    const text = part?.trim();
    if (text && !kept.includes(text)) kept.push(text);
  }
  return [...kept.filter((part) => part !== PRODUCT), PRODUCT].join(SEPARATOR);
}

function apply(): void {
  if (typeof document === 'undefined') return;
  const name = route.namedByHeader ? headerName : null;
  document.title = documentTitle([name, ...route.pages]);
}

/** The matched routes changed (called by the root layout). */
export function setRouteTitle(next: RouteTitle): void {
  route = next;
  apply();
}

/** What the page's heading shows, or null when it goes away (called by the page header). */
export function setHeaderName(name: string | null): void {
  headerName = name;
  apply();
}
