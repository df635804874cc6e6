import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while react-dom/server renders a page at build time (build/prerender.ts), true in the console.
 * A prerendered form must post without JavaScript, so a state only the console's code can leave (a
 * submit button disabled until the fields are filled) is drawn in the browser only.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
